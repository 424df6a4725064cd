package mockapnstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DeviceState is what a device token answers from now on (PUT /api/v1/devices/{token}). Make one with
// Unregistered, UnregisteredSince, Expired, OnlyTopics, OtherEnvironment or RateLimited. Tokens the mock was
// not told about are live devices (200).
type DeviceState struct{ body map[string]interface{} }

// Unregistered: the app was removed; pushes get 410 Unregistered with the time it was set as timestamp.
func Unregistered() DeviceState { return DeviceState{map[string]interface{}{"state": "unregistered"}} }

// UnregisteredSince: like Unregistered, with since as the 410's timestamp.
func UnregisteredSince(since time.Time) DeviceState {
	return DeviceState{map[string]interface{}{"state": "unregistered", "timestamp": since.UnixMilli()}}
}

// Expired: pushes get 410 ExpiredToken.
func Expired() DeviceState { return DeviceState{map[string]interface{}{"state": "expired"}} }

// OnlyTopics: the token accepts these topics only; any other gets 400 DeviceTokenNotForTopic.
func OnlyTopics(topics ...string) DeviceState {
	return DeviceState{map[string]interface{}{"state": "topics", "topics": append([]string{}, topics...)}}
}

// OtherEnvironment: the token belongs to the other environment; pushes get 400 BadDeviceToken.
func OtherEnvironment() DeviceState {
	return DeviceState{map[string]interface{}{"state": "otherEnvironment"}}
}

// RateLimited: after max pushes within window (whole seconds, at least 1), pushes get 429 TooManyRequests.
func RateLimited(max int, window time.Duration) DeviceState {
	return DeviceState{map[string]interface{}{"state": "rateLimited", "max": max, "window_seconds": int(window / time.Second)}}
}

// SetDevice makes token answer as state describes. The binary checks the state; a refusal fails the test.
func (m *Mock) SetDevice(token string, state DeviceState) {
	m.tb.Helper()
	m.must(m.call(http.MethodPut, "/api/v1/devices/"+url.PathEscape(token), state.body, nil))
}

// FaultAction is what a fault does to a push it hits. Make one with Respond, Delay, Stall, Drop or GoAway.
type FaultAction struct{ body map[string]interface{} }

// Respond answers with status and reason (e.g. 503, "ServiceUnavailable") instead of the real verdict.
func Respond(status int, reason string) FaultAction {
	return FaultAction{map[string]interface{}{"type": "status", "status": status, "reason": reason}}
}

// Delay answers normally, but only after d (whole milliseconds).
func Delay(d time.Duration) FaultAction {
	return FaultAction{map[string]interface{}{"type": "delay", "ms": d.Milliseconds()}}
}

// Stall never answers: the sender's timeout has to fire.
func Stall() FaultAction { return FaultAction{map[string]interface{}{"type": "stall"}} }

// Drop closes the TCP connection without answering.
func Drop() FaultAction { return FaultAction{map[string]interface{}{"type": "drop"}} }

// GoAway sends HTTP/2 GOAWAY with {"reason": reason} and closes the connection.
func GoAway(reason string) FaultAction {
	return FaultAction{map[string]interface{}{"type": "goaway", "reason": reason}}
}

// Fault is one fault-plan rule (POST /api/v1/faults): which pushes it hits, how many times, and what it does.
// Empty match fields match anything.
type Fault struct {
	Name     string // shown in records and listings; the binary names it after the action when empty
	Token    string // device token to match (case-insensitive)
	Topic    string // apns-topic to match
	PushType string // apns-push-type to match
	Count    int    // how many matching pushes it hits; 0 = every one
	Action   FaultAction
}

// AddFault adds f to the mock's fault plan and returns the rule's id.
func (m *Mock) AddFault(f Fault) string {
	m.tb.Helper()
	match := map[string]string{}
	for key, value := range map[string]string{"token": f.Token, "topic": f.Topic, "push_type": f.PushType} {
		if value != "" {
			match[key] = value
		}
	}
	rule := map[string]interface{}{"match": match, "action": f.Action.body}
	if f.Name != "" {
		rule["name"] = f.Name
	}
	if f.Count != 0 {
		rule["count"] = f.Count
	}
	var created struct {
		ID string `json:"id"`
	}
	m.must(m.call(http.MethodPost, "/api/v1/faults", rule, &created))
	return created.ID
}

// Notifications returns the recorded pushes (accepted and rejected) that match f's Topic, Token, PushType, Status
// and Reason, oldest first, as the control API filters them. f.Count is ignored here.
func (m *Mock) Notifications(f Filter) []Notification {
	m.tb.Helper()
	list, err := m.notifications(f.query())
	m.must(err)
	return list
}

// ClearNotifications forgets the recorded pushes (numbering goes on).
func (m *Mock) ClearNotifications() {
	m.tb.Helper()
	m.must(m.call(http.MethodDelete, "/api/v1/notifications", nil, nil))
}

// Clear forgets recorded pushes, device states and changes, and fault rules, and with WithFCM the FCM records: the
// mock behaves as if just started. FCM registrations, their topic subscriptions and trusted service accounts stay.
func (m *Mock) Clear() {
	m.tb.Helper()
	paths := []string{"/api/v1/notifications", "/api/v1/devices", "/api/v1/faults"}
	if m.fcm != nil {
		paths = append(paths, "/api/v1/fcm/messages")
	}
	for _, path := range paths {
		m.must(m.call(http.MethodDelete, path, nil, nil))
	}
}

func (m *Mock) notifications(query url.Values) ([]Notification, error) {
	path := "/api/v1/notifications"
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	var list struct {
		Notifications []record `json:"notifications"`
	}
	if err := m.call(http.MethodGet, path, nil, &list); err != nil {
		return nil, err
	}
	out := make([]Notification, len(list.Notifications))
	for i, r := range list.Notifications {
		out[i] = r.notification()
	}
	return out, nil
}

// must fails the test that started the mock when err is set.
func (m *Mock) must(err error) {
	if err != nil {
		m.tb.Helper()
		m.tb.Fatalf("mockapnstest: %v", err)
	}
}

// call sends one control-API request with body as JSON and decodes a 2xx answer into out; anything else is an
// error quoting the API's own {"error": …} sentence.
func (m *Mock) call(method, path string, body, out interface{}) error {
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("cannot encode the body of %s %s: %v", method, path, err)
		}
		reader = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, m.ControlURL+path, reader)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if m.controlToken != "" {
		req.Header.Set("Authorization", "Bearer "+m.controlToken)
	}
	resp, err := m.control.Do(req)
	if err != nil {
		if ended := m.server.ended(); ended != nil {
			return fmt.Errorf("%s %s failed: %v", method, path, ended)
		}
		return fmt.Errorf("%s %s failed: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: reading the answer failed: %v", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		var refusal struct {
			Error string `json:"error"`
		}
		text := strings.TrimSpace(string(data))
		if json.Unmarshal(data, &refusal) == nil && refusal.Error != "" {
			text = refusal.Error
		}
		return fmt.Errorf("the control API refused %s %s with %d: %s", method, path, resp.StatusCode, text)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s answered JSON the kit cannot read (%v): %.200s", method, path, err, data)
		}
	}
	return nil
}
