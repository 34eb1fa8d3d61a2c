package growth_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/internal/growth"
)

// recorder is a testing.TB that keeps what AtMostLinear reports.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Helper() {}

// sink keeps the work's results, so that the compiler keeps the work.
var sink int

// TestAtMostLinear: linear work passes, quadratic work is reported with
// its sizes and exponent.
func TestAtMostLinear(t *testing.T) {
	linear := func(n int) func() {
		s := strings.Repeat("a", n)
		return func() { sink += strings.Count(s, "a") }
	}
	// Byte by byte: strings.Count's vector loop would make the work of
	// each i too cheap to show the square under the calls' cost.
	quadratic := func(n int) func() {
		s := strings.Repeat("a", n)
		return func() {
			for i := range len(s) {
				for j := i; j < len(s); j++ {
					if s[j] == 'a' {
						sink++
					}
				}
			}
		}
	}
	r := &recorder{TB: t}
	growth.AtMostLinear(r, "linear", 1<<10, 16<<10, linear)
	assert.Empty(t, r.errors)
	growth.AtMostLinear(r, "quadratic", 512, 8<<10, quadratic)
	if assert.Len(t, r.errors, 1) {
		assert.Contains(t, r.errors[0], "quadratic: 512 took")
		assert.Contains(t, r.errors[0], "for 16 times the input")
	}
}
