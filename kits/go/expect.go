package mockapnstest

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Filter picks recorded pushes by what the control API filters on; empty fields match anything.
type Filter struct {
	Topic    string // apns-topic
	Token    string // device token (case-insensitive)
	PushType string // apns-push-type
	Status   int    // the status the mock answered; 0 = any
	Reason   string // the rejection reason, e.g. Unregistered
	// Count is how many pushes Expect wants to match: 0 means at least one, n > 0 exactly n.
	Count int
	// None makes Expect want no matching push at all (Count must then be 0).
	None bool
	// Where adds payload conditions to Expect, each PATH=VALUE: "aps.alert.title=Shipped", "aps.badge=3" (a number
	// matches numerically; true, false and null their JSON; an object or array its compact JSON text).
	Where []string
	// Timeout is how long Expect keeps asking until the expectation is met; 0 asks once.
	Timeout time.Duration
}

// query is f's fields as GET /api/v1/notifications filters them.
func (f Filter) query() url.Values {
	query := url.Values{}
	set := func(name, value string) {
		if value != "" {
			query.Set(name, value)
		}
	}
	set("topic", f.Topic)
	// Lowercase: the mock records tokens as hex, and its expectation compares them exactly (its list filter does not).
	set("token", strings.ToLower(f.Token))
	set("push_type", f.PushType)
	if f.Status != 0 {
		set("status", strconv.Itoa(f.Status))
	}
	set("reason", f.Reason)
	return query
}

// expectQuery is f as GET /api/v1/expect asks it: the filters, the payload conditions and the quantity.
func (f Filter) expectQuery() url.Values {
	query := f.query()
	for _, condition := range f.Where {
		query.Add("where", condition)
	}
	switch {
	case f.None:
		query.Set("none", "true")
	case f.Count > 0:
		query.Set("count", strconv.Itoa(f.Count))
	}
	return query
}

// String is the expectation as GET /api/v1/expect's query, e.g. `count=2&topic=com.example.app`.
func (f Filter) String() string { return f.expectQuery().Encode() }

// expectAnswer is the part of GET /api/v1/expect's answer the kit reads.
type expectAnswer struct {
	Met         bool     `json:"met"`
	MatchedSeqs []uint64 `json:"matched_seqs"`
	Considered  int      `json:"considered"`
	Message     string   `json:"message"`
}

// Expect checks that the mock recorded f.Count pushes matching f (at least one when Count is 0, none with None)
// and returns the matching ones, oldest first. The mock checks it (GET /api/v1/expect, asked again until met or
// f.Timeout has passed) and words a miss: Expect then reports t.Errorf with the mock's message, which says what was
// wanted, the matching records and the closest others, each miss spelled out. A push is recorded before it is
// answered, so once the sender has its answer, Expect sees it.
func (m *Mock) Expect(t testing.TB, f Filter) []Notification {
	t.Helper()
	if f.Count < 0 {
		t.Fatalf("mockapnstest: Filter.Count is %d; use 0 for at least one, or the exact number wanted", f.Count)
	}
	if f.None && f.Count != 0 {
		t.Fatalf("mockapnstest: Filter.None and Filter.Count %d were both given: pass one", f.Count)
	}
	answer, err := m.expectation("/api/v1/expect", f.expectQuery(), f.Timeout)
	if err != nil {
		t.Fatalf("mockapnstest: %v", err)
	}
	matching, err := m.matched(f, answer.MatchedSeqs)
	if err != nil {
		t.Fatalf("mockapnstest: %v", err)
	}
	if !answer.Met {
		message := strings.TrimRight(answer.Message, "\n")
		if answer.Considered == 0 {
			message = "mockapnstest: no push reached the mock. Is the sender pointed at mock.URL, trusting " +
				"mock.CertPool() and speaking HTTP/2?\n" + message
		}
		t.Errorf("%s", message)
	}
	return matching
}

// expectation asks path (GET /api/v1/expect or /api/v1/fcm/expect) with query every 50 ms until the answer is met
// or timeout has passed.
func (m *Mock) expectation(path string, query url.Values, timeout time.Duration) (expectAnswer, error) {
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	deadline := time.Now().Add(timeout)
	for {
		var answer expectAnswer
		if err := m.call(http.MethodGet, path, nil, &answer); err != nil {
			return answer, err
		}
		if answer.Met || !time.Now().Before(deadline) {
			return answer, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// matched returns the recorded pushes numbered seqs, oldest first.
func (m *Mock) matched(f Filter, seqs []uint64) ([]Notification, error) {
	out := []Notification{}
	if len(seqs) == 0 {
		return out, nil
	}
	wanted := map[uint64]bool{}
	for _, seq := range seqs {
		wanted[seq] = true
	}
	list, err := m.notifications(f.query())
	if err != nil {
		return nil, fmt.Errorf("reading the matching records: %v", err)
	}
	for _, n := range list {
		if wanted[n.Seq] {
			out = append(out, n)
		}
	}
	return out, nil
}
