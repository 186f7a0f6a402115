// Package benchcmp times a function next to its baseline in one benchmark,
// so a ratio can be read from one run. The SDK's benchmarks use it; it is
// not part of the SDK.
package benchcmp

import (
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
	median := func(j int) float64 {
		s := slices.Clone(samples[j][:n])
		slices.Sort(s)
		return float64(s[n/2])
	}
	for j, c := range contenders {
		b.ReportMetric(float64(spent[j].Nanoseconds())/float64(b.N), c.Name+"-ns")
		b.ReportMetric(testing.AllocsPerRun(100, func() { c.Run(b) }), c.Name+"-allocs")
		if j > 0 {
			b.ReportMetric(median(j)/median(0), c.Name+"-x-"+contenders[0].Name)
		}
	}
}
