package mockapnstest

import "time"

// SetReadyTimeout shortens how long Start waits for the ready file; it returns a function that restores it.
func SetReadyTimeout(d time.Duration) (restore func()) {
	old := readyTimeout
	readyTimeout = d
	return func() { readyTimeout = old }
}
