// Package memtune fits the Go runtime's collector to a process whose live
// heap is mostly one large structure, the in-memory index: a GC percentage
// that lets the heap grow a fixed headroom above it rather than double it,
// and a soft memory limit that gives freed pages back promptly, with room
// for a second index while one is built. The operator's GOGC and
// GOMEMLIMIT win. The indexer (package store) tells it its phases through
// store.MemoryTuner; cmd/jobsd wires it.
package memtune

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// Runtime tunes this process's runtime; it implements store.MemoryTuner.
type Runtime struct{}

// Tune implements store.MemoryTuner (tuneGC).
func (Runtime) Tune() { tuneGC() }

// RoomForBuild implements store.MemoryTuner (roomForBuild).
func (Runtime) RoomForBuild(indexBytes uint64) { roomForBuild(indexBytes) }

// Lift implements store.MemoryTuner (liftMemoryLimit).
func (Runtime) Lift() { liftMemoryLimit() }

// Release implements store.MemoryTuner: the freed memory goes back to the
// system now rather than stay as the heap's headroom.
func (Runtime) Release() { debug.FreeOSMemory() }

// gcHeadroom is how much the heap may grow above the live heap between
// collections once the index is large: Go's default (GOGC=100) lets a
// heap that is mostly index grow to twice its size under load.
const gcHeadroom = 96 << 20

// memorySlack is what the memory limit allows above the live heap and its
// headroom: the runtime's own memory and the heap's fragmentation.
const memorySlack = 32 << 20

// tuneGC sets the GC percentage that gives the live heap gcHeadroom to grow
// (between 25 and Go's default 100), unless the operator set GOGC, and a
// soft memory limit of the live heap, the runtime's memory outside the heap
// (goroutine stacks above all: an open subscription holds two), gcHeadroom
// and memorySlack, unless the operator set GOMEMLIMIT. The limit makes the
// runtime give the heap's free pages back to the system promptly, which it
// otherwise does only slowly, keeping the process's memory well above its
// live heap. It runs after each build, and every retuneEvery between
// builds: the open subscriptions grow and shrink both the live heap and
// the memory outside it, and a limit below what the process holds would
// make the collector run without pause.
func tuneGC() {
	live, outside := heapSizes()
	if live == 0 {
		return
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(int(min(max(100*gcHeadroom/live, 25), 100)))
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(live + outside + gcHeadroom + memorySlack))
	}
}

// roomForBuild sets, unless the operator set GOMEMLIMIT, the memory limit
// of a build beside the current index, whose SizeInBytes is indexBytes:
// room for a second index, besides tuneGC's. Lifting the limit instead let
// the heap's garbage (a million rows read) and its freed pages pile up: a
// rebuild at a million jobs peaked at twice its live heap. Room the size
// of the whole live heap (the index and all else: the normalizer, the
// subscriptions' history) let it peak 60 MB higher than this.
func roomForBuild(indexBytes uint64) {
	live, outside := heapSizes()
	if live == 0 || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(int64(live + indexHeap(indexBytes, live) + outside + gcHeadroom + memorySlack))
}

// indexHeap is the heap an index of indexBytes (its SizeInBytes: the
// contents of its bitmaps and arrays) takes: a quarter more for their
// headers, maps and growth (heap profiles of a build at 1,000,000 jobs:
// 182 MB against 145), and never more than the live heap it is part of.
func indexHeap(indexBytes, live uint64) uint64 { return min(indexBytes+indexBytes/4, live) }

// heapSizes returns the live heap as of the last collection, and the
// runtime's memory outside the heap.
func heapSizes() (live, outside uint64) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(sample)
	total, heap := sample[1].Value.Uint64(), uint64(0)
	for _, s := range sample[2:] {
		heap += s.Value.Uint64()
	}
	return sample[0].Value.Uint64(), total - min(heap, total)
}

// liftMemoryLimit removes tuneGC's memory limit (not the operator's).
func liftMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(math.MaxInt64)
	}
}
