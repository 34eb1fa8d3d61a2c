//go:build !unix

package normalize_test

import "time"

// processCPU is unknown here: the benchmark reports 0.
func processCPU() time.Duration { return 0 }
