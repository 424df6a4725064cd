package mockapnstest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Notification is one push the mock answered, accepted or rejected, as the control API recorded it.
type Notification struct {
	Seq        uint64          // position in the recording, from 1
	Token      string          // device token from the path
	Topic      string          // apns-topic
	PushType   string          // apns-push-type
	Status     int             // the status the mock answered (0: not answered, a fault stalled or dropped it)
	Reason     string          // the reason of a rejection, e.g. Unregistered
	APNsID     string          // the apns-id the mock answered with
	AlertTitle string          // aps.alert.title
	AlertBody  string          // aps.alert.body, or aps.alert when it is a string
	Payload    json.RawMessage // the body, when it is JSON
	Headers    [][2]string     // request headers in wire order, lowercase names
	Faults     []string        // names of the fault rules that fired for it
	// Environment is the APNs environment the push was addressed to: development or production (with
	// WithAppleHosts, the one its host name implies).
	Environment string
}

// Header returns the first request header called name (lowercase), or "".
func (n Notification) Header(name string) string {
	for _, h := range n.Headers {
		if h[0] == name {
			return h[1]
		}
	}
	return ""
}

// Summary is one readable line, e.g.
// `#3 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200); title "Shipped", body "Order 42"`.
func (n Notification) Summary() string {
	text := fmt.Sprintf("#%d push", n.Seq)
	if n.PushType != "" {
		text = fmt.Sprintf("#%d %s push", n.Seq, n.PushType)
	}
	text += " to " + shortToken(n.Token)
	if n.Topic != "" {
		text += ", topic " + n.Topic
	}
	text += ": " + n.ResponseText()
	var details []string
	if n.AlertTitle != "" {
		details = append(details, "title "+strconv.Quote(n.AlertTitle))
	}
	if n.AlertBody != "" {
		details = append(details, "body "+strconv.Quote(n.AlertBody))
	}
	if n.Payload == nil {
		details = append(details, "body is not JSON")
	}
	if len(details) > 0 {
		text += "; " + strings.Join(details, ", ")
	}
	return text
}

// ResponseText is `accepted (200)`, `rejected 410 Unregistered` or `not answered (stall)`.
func (n Notification) ResponseText() string {
	switch {
	case n.Status == 200:
		return "accepted (200)"
	case n.Status == 0:
		return "not answered (" + strings.Join(n.Faults, ", ") + ")"
	case n.Reason != "":
		return fmt.Sprintf("rejected %d %s", n.Status, n.Reason)
	default:
		return fmt.Sprintf("rejected %d", n.Status)
	}
}

// shortToken keeps the first 8 and last 6 characters of a long token.
func shortToken(token string) string {
	switch {
	case token == "":
		return "(no device token)"
	case len(token) > 16:
		return token[:8] + "…" + token[len(token)-6:]
	default:
		return token
	}
}

// record is the part of the control API's Record schema the kit reads.
type record struct {
	Seq         uint64          `json:"seq"`
	DeviceToken *string         `json:"device_token"`
	Headers     [][]string      `json:"headers"`
	Payload     json.RawMessage `json:"payload"`
	Faults      []string        `json:"faults"`
	Environment string          `json:"environment"`
	Response    struct {
		Status int     `json:"status"`
		Reason *string `json:"reason"`
		APNsID *string `json:"apns_id"`
	} `json:"response"`
}

func (r record) notification() Notification {
	n := Notification{Seq: r.Seq, Status: r.Response.Status, Faults: r.Faults, Environment: r.Environment}
	n.Token, n.Reason, n.APNsID = deref(r.DeviceToken), deref(r.Response.Reason), deref(r.Response.APNsID)
	for _, pair := range r.Headers {
		if len(pair) == 2 {
			n.Headers = append(n.Headers, [2]string{pair[0], pair[1]})
		}
	}
	n.Topic, n.PushType = n.Header("apns-topic"), n.Header("apns-push-type")
	if len(r.Payload) > 0 && string(r.Payload) != "null" {
		n.Payload = r.Payload
		var body struct {
			APS struct {
				Alert json.RawMessage `json:"alert"`
			} `json:"aps"`
		}
		if json.Unmarshal(r.Payload, &body) == nil {
			var alert struct{ Title, Body string }
			if json.Unmarshal(body.APS.Alert, &n.AlertBody) != nil && json.Unmarshal(body.APS.Alert, &alert) == nil {
				n.AlertTitle, n.AlertBody = alert.Title, alert.Body
			}
		}
	}
	return n
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
