package mockapnstest_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	mockapnstest "github.com/mockapns/mockapns/kits/go"
)

func TestWithNeitherABinaryNorAnEngineTheErrorGivesBothWays(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("MOCKAPNS_BIN", "")
	t.Setenv("MOCKAPNS_CONTAINER_ENGINE", "")

	t.Setenv("MOCKAPNS_IMAGE", "")
	fake := &recordingTB{TB: t}
	fake.run(func() { mockapnstest.Start(fake) })
	got := fake.onlyFatal(t)
	for _, want := range []string{"no mockapns on PATH", "set MOCKAPNS_BIN=", "set MOCKAPNS_IMAGE=mockapns:latest", "neither podman nor docker is on PATH"} {
		if !strings.Contains(got, want) {
			t.Errorf("without a binary, the message %q should contain %q", got, want)
		}
	}

	t.Setenv("MOCKAPNS_IMAGE", "mockapns:latest")
	fake = &recordingTB{TB: t}
	fake.run(func() { mockapnstest.Start(fake) })
	got = fake.onlyFatal(t)
	for _, want := range []string{"image mockapns:latest", "neither podman nor docker is on PATH", "install one", "unset MOCKAPNS_IMAGE and set MOCKAPNS_BIN"} {
		if !strings.Contains(got, want) {
			t.Errorf("without an engine, the message %q should contain %q", got, want)
		}
	}
}

func TestWithBothEnginesOnPathTheOneThatAnswersIsPicked(t *testing.T) {
	t.Setenv("MOCKAPNS_CONTAINER_ENGINE", "")
	// Exit status of each fake engine's `info`: podman's machine stopped while Docker Desktop runs, both up, both down.
	for _, c := range []struct{ podman, docker, want string }{
		{podman: "1", docker: "0", want: "docker"},
		{podman: "0", docker: "0", want: "podman"},
		{podman: "1", docker: "1", want: "podman"},
	} {
		dir := t.TempDir()
		for name, status := range map[string]string{"podman": c.podman, "docker": c.docker} {
			script := "#!/bin/sh\n[ \"$1\" = info ] && exit " + status + "\nexit 0\n"
			if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		t.Setenv("PATH", dir)
		got, err := mockapnstest.ContainerEngine()
		if err != nil || got != filepath.Join(dir, c.want) {
			t.Errorf("podman info exits %s, docker info %s: picked %q (%v); want %s", c.podman, c.docker, got, err, c.want)
		}
	}
}

func TestContainerModeSendsTheControlTokenItMade(t *testing.T) {
	onlyIn(t, "container", "the image's control plane listens on 0.0.0.0 and needs a token; a local binary's does not")
	mock := mockapnstest.Start(t)
	if mock.Image != os.Getenv("MOCKAPNS_IMAGE") || !strings.HasPrefix(mock.Container, "mockapnstest-") {
		t.Errorf("Image %q, Container %q; want the image run and the container's name", mock.Image, mock.Container)
	}
	resp, err := http.Get(mock.ControlURL + "/api/v1/notifications")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the control API without the token answered %d; want 401", resp.StatusCode)
	}
	if a := send(t, mock, mock.Client(), phone, appTopic, "Token"); a.status != 200 {
		t.Errorf("push: %+v, want 200", a)
	}
	mock.Expect(t, mockapnstest.Filter{Token: phone, Count: 1}) // the kit's own calls carry the token
}

func TestAMissingImageFailsNamingTheImageAndTheEngine(t *testing.T) {
	onlyIn(t, "container", "it needs a container engine")
	image := "localhost/mockapns:no-such-tag"
	t.Setenv("MOCKAPNS_IMAGE", image)
	leavesNoContainer(t, func(t *testing.T) {
		fake := &recordingTB{TB: t}
		fake.run(func() { mockapnstest.Start(fake) })
		got := fake.onlyFatal(t)
		for _, want := range []string{"image " + image, "engine " + engine(t), "could not be started", "`make image` builds mockapns:latest",
			"The container's last output:"} {
			if !strings.Contains(got, want) {
				t.Errorf("message %q should contain %q", got, want)
			}
		}
	})
}

func TestAnEngineThatDoesNotAnswerFailsClearly(t *testing.T) {
	onlyIn(t, "container", "it needs a container engine")
	real := engine(t)
	// The real engine's client, pointed at a socket nobody serves: what a stopped Docker daemon or podman machine is.
	dead := filepath.Join(t.TempDir(), "engine.sock")
	flags := "--remote --url unix://" + dead
	if filepath.Base(real) == "docker" {
		flags = "-H unix://" + dead
	}
	wrapper := filepath.Join(t.TempDir(), filepath.Base(real))
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec '"+real+"' "+flags+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	leavesNoContainer(t, func(t *testing.T) {
		fake := &recordingTB{TB: t}
		fake.run(func() { mockapnstest.Start(fake, mockapnstest.WithContainerEngine(wrapper)) })
		got := fake.onlyFatal(t)
		for _, want := range []string{"image " + os.Getenv("MOCKAPNS_IMAGE"), "engine " + wrapper, "could not be started",
			dead, "check that the engine works"} {
			if !strings.Contains(got, want) {
				t.Errorf("message %q should contain %q", got, want)
			}
		}
	})
}

func TestAContainerThatStopsBeforeItIsReadyFailsWithItsOutput(t *testing.T) {
	onlyIn(t, "container", "the binary's version of this is TestStartReportsAServerThatExitsWithItsOutput")
	leavesNoContainer(t, func(t *testing.T) {
		fake := &recordingTB{TB: t}
		fake.run(func() { mockapnstest.Start(fake, mockapnstest.WithArgs("--environment", "staging")) })
		got := fake.onlyFatal(t)
		for _, want := range []string{"image " + os.Getenv("MOCKAPNS_IMAGE"), "has stopped (exit code", "staging",
			"It stopped before it was ready"} {
			if !strings.Contains(got, want) {
				t.Errorf("message %q should contain %q", got, want)
			}
		}
	})
}

func TestAContainerThatDiesMidTestIsReportedAndRemoved(t *testing.T) {
	onlyIn(t, "container", "the binary's version of this is a killed process")
	leavesNoContainer(t, func(t *testing.T) {
		fake := &recordingTB{TB: t}
		mock := startThrough(t, fake)
		if out, err := exec.Command(engine(t), "kill", mock.Container).CombinedOutput(); err != nil {
			t.Fatalf("killing %s: %v: %s", mock.Container, err, out)
		}
		fake.run(func() { mock.Notifications(mockapnstest.Filter{}) })
		got := fake.onlyFatal(t)
		for _, want := range []string{"GET /api/v1/notifications failed", mock.Container, "image " + mock.Image,
			"has stopped (exit code", "The container's last output:"} {
			if !strings.Contains(got, want) {
				t.Errorf("message %q should contain %q", got, want)
			}
		}
	})
}
