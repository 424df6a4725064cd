package mockapnstest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"

	mockapnstest "github.com/mockapns/mockapns/kits/go"
)

const (
	phone      = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"
	tablet     = "11aa22bb33cc44dd55ee66ff778899aabbccddeeff00112233445566778899aa"
	watch      = "99887766554433221100ffeeddccbbaa99887766554433221100ffeeddccbbaa"
	appTopic   = "com.example.app"
	otherTopic = "com.example.other"
)

// answer is what the mock said to one push.
type answer struct {
	status    int
	reason    string
	timestamp int64
	apnsID    string
}

// send posts an alert push the way sideshow/apns2 does (POST /3/device/<token>, lowercase "bearer" token,
// apns-* headers, JSON body) over the mock's HTTP/2 client, and fails the test unless it went over HTTP/2.
func send(t *testing.T, mock *mockapnstest.Mock, client *http.Client, token, topic, title string) answer {
	t.Helper()
	return sendAlert(t, mock, client, token, alert{topic: topic, title: title, body: "Order 42"})
}

// alert is what sendAlert sends: apns-topic (appTopic when empty), aps.alert's title and body, aps.badge when set,
// thread-id and apns-collapse-id when not empty.
type alert struct {
	topic, title, body, threadID, collapseID string
	badge                                    *int
}

// sendAlert is send with every field of a.
func sendAlert(t *testing.T, mock *mockapnstest.Mock, client *http.Client, token string, a alert) answer {
	t.Helper()
	aps := map[string]interface{}{"alert": map[string]string{"title": a.title, "body": a.body}}
	if a.badge != nil {
		aps["badge"] = *a.badge
	}
	if a.threadID != "" {
		aps["thread-id"] = a.threadID
	}
	payload, _ := json.Marshal(map[string]interface{}{"aps": aps})
	req, err := http.NewRequest(http.MethodPost, mock.URL+"/3/device/"+token, strings.NewReader(string(payload)))
	if err != nil {
		t.Fatal(err)
	}
	if a.topic == "" {
		a.topic = appTopic
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("authorization", fmt.Sprintf("bearer %v", mock.Token()))
	req.Header.Set("apns-topic", a.topic)
	req.Header.Set("apns-push-type", "alert")
	req.Header.Set("apns-priority", "10")
	if a.collapseID != "" {
		req.Header.Set("apns-collapse-id", a.collapseID)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("push to %s failed: %v", token, err)
	}
	defer resp.Body.Close()
	if resp.ProtoMajor != 2 {
		t.Fatalf("the push went over %s, want HTTP/2", resp.Proto)
	}
	body, _ := io.ReadAll(resp.Body)
	ans := answer{status: resp.StatusCode, apnsID: resp.Header.Get("apns-id")}
	if len(body) > 0 {
		var parsed struct {
			Reason    string `json:"reason"`
			Timestamp int64  `json:"timestamp"`
		}
		if err := json.Unmarshal(body, &parsed); err != nil {
			t.Fatalf("the mock answered %d with a body that is not JSON: %q", resp.StatusCode, body)
		}
		ans.reason, ans.timestamp = parsed.Reason, parsed.Timestamp
	}
	return ans
}

// recordingTB stands in for a test to capture what the kit reports: Errorf and Fatalf are recorded (Fatalf then
// ends the goroutine, as testing does), everything else (Cleanup, TempDir, Logf) goes to the real test.
type recordingTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
	fatals []string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...interface{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Fatalf(format string, args ...interface{}) {
	r.mu.Lock()
	r.fatals = append(r.fatals, fmt.Sprintf(format, args...))
	r.mu.Unlock()
	runtime.Goexit()
}

// run calls f on its own goroutine, so a Fatalf ends only f, and waits for it.
func (r *recordingTB) run(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// startThrough starts a mock that reports through fake, failing t (not ending its goroutine from inside fake) when
// the start fails.
func startThrough(t *testing.T, fake *recordingTB, options ...mockapnstest.Option) *mockapnstest.Mock {
	t.Helper()
	var mock *mockapnstest.Mock
	fake.run(func() { mock = mockapnstest.Start(fake, options...) })
	if mock == nil {
		t.Fatalf("Start failed: %q", fake.fatals)
	}
	return mock
}

// onlyError returns the single Errorf message, failing the real test if there was not exactly one (or a Fatalf).
func (r *recordingTB) onlyError(t *testing.T) string {
	t.Helper()
	if len(r.fatals) > 0 || len(r.errors) != 1 {
		t.Fatalf("want exactly one Errorf and no Fatalf; got errors %q, fatals %q", r.errors, r.fatals)
	}
	return r.errors[0]
}

// onlyFatal returns the single Fatalf message, failing the real test otherwise.
func (r *recordingTB) onlyFatal(t *testing.T) string {
	t.Helper()
	if len(r.fatals) != 1 || len(r.errors) > 0 {
		t.Fatalf("want exactly one Fatalf; got errors %q, fatals %q", r.errors, r.fatals)
	}
	return r.fatals[0]
}
