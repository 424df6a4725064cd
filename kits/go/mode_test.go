package mockapnstest_test

import (
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"

	mockapnstest "github.com/mockapns/mockapns/kits/go"
)

// The suite runs in one of two modes, as the kit does: against the mockapns binary (MOCKAPNS_BIN), or against its
// image (MOCKAPNS_IMAGE, run by podman or docker). Every test that starts a real mock runs in both; the few that
// are about one mode's machinery say which with onlyIn.

// suiteMode is "container" when MOCKAPNS_IMAGE names an image, else "binary".
func suiteMode() string {
	if os.Getenv("MOCKAPNS_IMAGE") != "" {
		return "container"
	}
	return "binary"
}

// onlyIn skips the test, saying so, when the suite runs in the other mode.
func onlyIn(t *testing.T, mode, why string) {
	t.Helper()
	if suiteMode() != mode {
		t.Skipf("%s mode only (%s); this run is in %s mode", mode, why, suiteMode())
	}
}

// engine is the container engine the kit picks: MOCKAPNS_CONTAINER_ENGINE, else podman or docker on PATH (with
// both, the one that answers).
func engine(t *testing.T) string {
	t.Helper()
	path, err := mockapnstest.ContainerEngine()
	if err != nil {
		t.Fatalf("container mode needs podman or docker on PATH (or MOCKAPNS_CONTAINER_ENGINE): %v", err)
	}
	return path
}

// kitContainers lists the names of the containers the kit started in this test process that still exist.
func kitContainers(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command(engine(t), "ps", "-a", "--filter", "label=io.mockapns.kit=go",
		"--filter", "label=io.mockapns.pid="+strconv.Itoa(os.Getpid()), "--format", "{{.Names}}").Output()
	if err != nil {
		t.Fatalf("listing the kit's containers failed: %v", err)
	}
	names := strings.Fields(string(out))
	sort.Strings(names)
	return names
}

// leavesNoContainer runs f as a subtest (so its cleanups have run when it returns) and fails if a container of the
// kit was left behind.
func leavesNoContainer(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	before := strings.Join(kitContainers(t), " ")
	t.Run("run", f)
	if after := strings.Join(kitContainers(t), " "); after != before {
		t.Errorf("containers of the kit before: [%s], after: [%s]; want none left behind", before, after)
	}
}
