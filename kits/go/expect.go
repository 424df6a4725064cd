package mockapnstest

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
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
}

// listLimit is how many non-matching pushes a failure message lists before summing up the rest.
const listLimit = 5

// criterion is one field of a Filter that is set: its query parameter, its name in messages and its value.
type criterion struct{ param, name, value string }

func (f Filter) criteria() []criterion {
	var list []criterion
	add := func(param, name, value string) {
		if value != "" {
			list = append(list, criterion{param, name, value})
		}
	}
	add("topic", "topic", f.Topic)
	add("token", "device token", f.Token)
	add("push_type", "push type", f.PushType)
	if f.Status != 0 {
		add("status", "response status", strconv.Itoa(f.Status))
	}
	add("reason", "reason", f.Reason)
	return list
}

func (f Filter) query() url.Values {
	query := url.Values{}
	for _, c := range f.criteria() {
		query.Set(c.param, c.value)
	}
	return query
}

// String is the expectation in words, e.g. `exactly 2 notifications with topic com.example.app, response status 200`.
func (f Filter) String() string {
	var text string
	switch {
	case f.Count <= 0:
		text = "a notification"
	case f.Count == 1:
		text = "exactly 1 notification"
	default:
		text = fmt.Sprintf("exactly %d notifications", f.Count)
	}
	var parts []string
	for _, c := range f.criteria() {
		parts = append(parts, c.name+" "+c.value)
	}
	if len(parts) > 0 {
		text += " with " + strings.Join(parts, ", ")
	}
	return text
}

// Expect checks that the mock recorded f.Count pushes matching f (at least one when Count is 0) and returns
// the matching ones, oldest first. Otherwise it reports t.Errorf with what was expected and the recorded pushes,
// closest match first, each mismatch spelled out. The binary decides what matches (GET /api/v1/notifications
// with f's fields as filters); the kit only words the answer. A push is recorded before it is answered, so
// once the sender has its answer, Expect sees it.
func (m *Mock) Expect(t testing.TB, f Filter) []Notification {
	t.Helper()
	if f.Count < 0 {
		t.Fatalf("mockapnstest: Filter.Count is %d; use 0 for at least one, or the exact number wanted", f.Count)
	}
	matching, err := m.notifications(f.query())
	if err != nil {
		t.Fatalf("mockapnstest: %v", err)
	}
	if (f.Count == 0 && len(matching) > 0) || (f.Count > 0 && len(matching) == f.Count) {
		return matching
	}
	message, err := m.failureMessage(f, matching)
	if err != nil {
		t.Fatalf("mockapnstest: %v", err)
	}
	t.Errorf("%s", message)
	return matching
}

// failureMessage words an unmet expectation: the verdict, then the other pushes ranked by how many of the
// filter's fields they have (asking the control API which pushes have each field), ties in the order received.
func (m *Mock) failureMessage(f Filter, matching []Notification) (string, error) {
	header := "Expected " + f.String()
	all, err := m.notifications(nil)
	if err != nil {
		return "", err
	}
	if len(all) == 0 {
		return header + ", but the mock received no notifications. " +
			"Is the sender pointed at mock.URL, trusting mock.CertPool() and speaking HTTP/2?", nil
	}
	var lines []string
	if f.Count > 0 && len(matching) > f.Count {
		lines = append(lines, fmt.Sprintf("%s, but %d matched:", header, len(matching)))
		for i, n := range matching {
			if i == listLimit {
				lines = append(lines, fmt.Sprintf("  … and %d more", len(matching)-listLimit))
				break
			}
			lines = append(lines, "  "+n.Summary())
		}
		return strings.Join(lines, "\n"), nil
	}
	criteria := f.criteria()
	switch {
	case len(matching) > 0:
		var numbers []string
		for _, n := range matching {
			numbers = append(numbers, fmt.Sprintf("#%d", n.Seq))
		}
		lines = append(lines, fmt.Sprintf("%s, but only %d matched (%s).", header, len(matching), strings.Join(numbers, ", ")))
	case len(criteria) == 0:
		lines = append(lines, fmt.Sprintf("%s, but the mock received only %d.", header, len(all)))
	case len(all) == 1:
		lines = append(lines, header+", but the only notification received did not match.")
	default:
		lines = append(lines, fmt.Sprintf("%s, but none of the %d received matched.", header, len(all)))
	}

	// Which recorded pushes have each field, as the binary decides it.
	has := make([]map[uint64]bool, len(criteria))
	for i, c := range criteria {
		one, err := m.notifications(url.Values{c.param: {c.value}})
		if err != nil {
			return "", err
		}
		has[i] = map[uint64]bool{}
		for _, n := range one {
			has[i][n.Seq] = true
		}
	}
	isMatch := map[uint64]bool{}
	for _, n := range matching {
		isMatch[n.Seq] = true
	}
	type ranked struct {
		n       Notification
		matched int
	}
	var others []ranked
	for _, n := range all {
		if isMatch[n.Seq] {
			continue
		}
		r := ranked{n: n}
		for i := range criteria {
			if has[i][n.Seq] {
				r.matched++
			}
		}
		others = append(others, r)
	}
	sort.SliceStable(others, func(a, b int) bool { return others[a].matched > others[b].matched })
	if len(others) > 0 {
		if len(matching) == 0 {
			lines = append(lines, "Received, closest match first:")
		} else {
			lines = append(lines, "Other notifications, closest match first:")
		}
	}
	for i, r := range others {
		if i == listLimit {
			lines = append(lines, fmt.Sprintf("  … and %d more", len(others)-listLimit))
			break
		}
		line := "  " + r.n.Summary()
		if len(criteria) > 1 {
			line += fmt.Sprintf(" — has %d of %d", r.matched, len(criteria))
		}
		lines = append(lines, line)
		for c, crit := range criteria {
			if !has[c][r.n.Seq] {
				lines = append(lines, fmt.Sprintf("      %s: expected %s, got %s", crit.name, crit.value, actual(r.n, crit.param)))
			}
		}
	}
	return strings.Join(lines, "\n"), nil
}

// actual is what n has for a filter field, as a failure message shows it.
func actual(n Notification, param string) string {
	orAbsent := func(s string) string {
		if s == "" {
			return "absent"
		}
		return s
	}
	switch param {
	case "topic":
		return orAbsent(n.Topic)
	case "token":
		return orAbsent(n.Token)
	case "push_type":
		return orAbsent(n.PushType)
	case "status":
		return n.ResponseText()
	default:
		return orAbsent(n.Reason)
	}
}
