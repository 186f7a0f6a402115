// Package benchcmp times a function next to its baseline in one benchmark,
// so a ratio can be read from one run. The SDK's benchmarks use it; it is
// not part of the SDK.
package benchcmp

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// A Contender is one function a benchmark times.
type Contender struct {
	Name string
	Run  func(b *testing.B)
}

// Compare runs each contender once per iteration, in turn, each timed on
// its own. It reports each one's mean time per call (<name>-ns), its
// allocations per call (<name>-allocs), and the ratio of the median time
// per call of each to that of the first, the baseline (<name>-x-<base>),
// over the last 4096 iterations. Taking turns in one run makes a shared
// and noisy machine slow them alike; medians leave out the calls the
// operating system stopped to run something else, and also the rare call
// that pays for a garbage collection, which <name>-ns and <name>-allocs
// still show. ns/op and allocs/op are those of all contenders together.
func Compare(b *testing.B, contenders ...Contender) {
	spent := make([]time.Duration, len(contenders))
	samples := make([][4096]time.Duration, len(contenders))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for j, c := range contenders {
			start := time.Now()
			c.Run(b)
			d := time.Since(start)
			spent[j] += d
			samples[j][i%len(samples[j])] = d
		}
	}
	n := min(b.N, len(samples[0]))
	median := func(j int) float64 { return median(slices.Clone(samples[j][:n])) }
	for j, c := range contenders {
		b.ReportMetric(float64(spent[j].Nanoseconds())/float64(b.N), c.Name+"-ns")
		b.ReportMetric(testing.AllocsPerRun(100, func() { c.Run(b) }), c.Name+"-allocs")
		if j > 0 {
			b.ReportMetric(median(j)/median(0), c.Name+"-x-"+contenders[0].Name)
		}
	}
}

// Against is a baseline that rows are measured against, for benchmarks
// whose calls are long (a locale file, a plan): run the baseline's
// sub-benchmark with Baseline, then each row's with Row. A row takes
// turns with its baseline, which is not counted in the row's ns/op,
// so that a loaded machine slows both alike.
type Against struct{ f func() }

// Baseline records f as the baseline and times it alone.
func (a *Against) Baseline(b *testing.B, f func()) {
	a.f = f
	b.ReportAllocs()
	for b.Loop() {
		f()
	}
}

// Row times f, taking turns with the baseline, and reports x-time, the
// median of f's times over the median of the baseline's; x-cpu, the
// process's CPU time in f over that in the baseline (all threads, the
// garbage collector's too: on a loaded machine it moves far less than
// wall time, which counts the turns others had); and x-bytes, f's bytes
// allocated over the baseline's. When -bench picked the row without its
// baseline, it times f alone.
func (a *Against) Row(b *testing.B, f func()) {
	b.ReportAllocs()
	if a.f == nil {
		for b.Loop() {
			f()
		}
		return
	}
	var row, base cost
	for b.Loop() {
		b.StopTimer()
		base.measure(a.f)
		b.StartTimer()
		row.measure(f)
	}
	b.ReportMetric(median(row.times)/median(base.times), "x-time")
	if base.cpu > 0 {
		b.ReportMetric(float64(row.cpu)/float64(base.cpu), "x-cpu")
	}
	b.ReportMetric(float64(row.bytes)/float64(base.bytes), "x-bytes")
}

// A cost is what the calls of one function took: each call's time, and
// the CPU time and bytes allocated of all together.
type cost struct {
	times []time.Duration
	cpu   time.Duration
	bytes uint64
}

// measure runs f once and adds what it took.
func (c *cost) measure(f func()) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu := cpuTime()
	start := time.Now()
	f()
	d := time.Since(start)
	c.cpu += cpuTime() - cpu
	runtime.ReadMemStats(&after)
	c.times = append(c.times, d)
	c.bytes += after.TotalAlloc - before.TotalAlloc
}

// median sorts ds and returns its middle one, in nanoseconds.
func median(ds []time.Duration) float64 {
	slices.Sort(ds)
	return float64(ds[len(ds)/2])
}
