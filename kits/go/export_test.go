package mockapnstest

import (
	"os"
	"time"
)

// SetReadyTimeout shortens how long Start waits for the ready file; it returns a function that restores it.
func SetReadyTimeout(d time.Duration) (restore func()) {
	old := readyTimeout
	readyTimeout = d
	return func() { readyTimeout = old }
}

// ContainerEngine is the engine the kit picks for container mode, from $MOCKAPNS_CONTAINER_ENGINE and PATH.
func ContainerEngine() (string, error) {
	return findEngine(os.Getenv("MOCKAPNS_CONTAINER_ENGINE"), os.Getenv("MOCKAPNS_IMAGE"))
}
