package mockapnstest_test

import (
	"sort"
	"testing"
	"time"

	mockapnstest "github.com/mockapns/mockapns/kits/go"
)

// stopNowTB runs a Start's cleanups when asked, so each benchmark iteration stops its mock before the next.
type stopNowTB struct {
	testing.TB
	cleanups []func()
}

func (s *stopNowTB) Cleanup(f func()) { s.cleanups = append(s.cleanups, f) }

func (s *stopNowTB) stop() {
	for i := len(s.cleanups) - 1; i >= 0; i-- {
		s.cleanups[i]()
	}
	s.cleanups = nil
}

// BenchmarkStart measures Start (launch, ready file, CA and key) and reports the median alongside the mean.
// Run: go test -run '^$' -bench Start -benchtime 5x
func BenchmarkStart(b *testing.B) {
	starts := make([]time.Duration, 0, b.N)
	tb := &stopNowTB{TB: b}
	for i := 0; i < b.N; i++ {
		began := time.Now()
		mockapnstest.Start(tb)
		starts = append(starts, time.Since(began))
		b.StopTimer()
		tb.stop()
		b.StartTimer()
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	b.ReportMetric(float64(starts[len(starts)/2].Microseconds())/1000, "median-start-ms")
}
