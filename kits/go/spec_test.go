package mockapnstest_test

// The kit against kits/spec (its README says what each file is): the arguments it starts the mock with in both modes
// (launch.json), the ready file, provider tokens from the mock's own binary, the expectation cases run through Expect
// (expectations/*.json), and every control-API request it sends checked against the server's openapi.json.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	mockapnstest "github.com/mockapns/mockapns/kits/go"
)

// specDir is the kit contract, kits/spec, and openapiPath the control API's document.
var (
	specDir     = filepath.Join("..", "spec")
	openapiPath = filepath.Join("..", "..", "Sources", "MockAPNsControl", "OpenAPI", "openapi.json")
)

func loadSpec(t *testing.T, name string, into interface{}) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(specDir, name))
	if err != nil {
		t.Fatalf("reading kits/spec/%s: %v", name, err)
	}
	if err := json.Unmarshal(data, into); err != nil {
		t.Fatalf("kits/spec/%s: %v", name, err)
	}
}

// launchCase is one case of launch.json's binary or container list.
type launchCase struct {
	RawOpts   map[string]bool `json:"options"`
	Arguments []string        `json:"arguments"`
}

type launchSpec struct {
	Binary    struct{ Cases []launchCase } `json:"binary"`
	Container struct{ Cases []launchCase } `json:"container"`
	ReadyFile struct {
		Always []string               `json:"always"`
		Fields map[string]interface{} `json:"fields"`
	} `json:"ready_file"`
	ProviderToken struct {
		ReuseSeconds int      `json:"reuse_seconds"`
		Binary       []string `json:"binary"`
		Container    []string `json:"container"`
	} `json:"provider_token"`
}

func loadLaunch(t *testing.T) launchSpec {
	var spec launchSpec
	loadSpec(t, "launch.json", &spec)
	if len(spec.Binary.Cases) == 0 || len(spec.Container.Cases) == 0 {
		t.Fatal("launch.json has no binary or container cases")
	}
	return spec
}

// options are the kit's options for a case's {"apple_hosts", "fcm"}.
func (c launchCase) options(t *testing.T) []mockapnstest.Option {
	var options []mockapnstest.Option
	for name, on := range c.RawOpts {
		switch {
		case name == "apple_hosts" && on:
			options = append(options, mockapnstest.WithAppleHosts())
		case name == "fcm" && on:
			options = append(options, mockapnstest.WithFCM())
		case on:
			t.Fatalf("launch.json option %q is not one the Go kit has", name)
		}
	}
	return options
}

// substitute fills launch.json's {placeholders}; one left over fails the test.
func substitute(t *testing.T, arguments []string, values map[string]string) []string {
	t.Helper()
	out := make([]string, len(arguments))
	for i, argument := range arguments {
		for name, value := range values {
			argument = strings.ReplaceAll(argument, "{"+name+"}", value)
		}
		if strings.Contains(argument, "{") {
			t.Fatalf("launch.json placeholder left in %q", argument)
		}
		out[i] = argument
	}
	return out
}

// recordingExecutable writes a shell script that appends its arguments (one a line) to <path>.args when its first
// argument is first (any call when first is ""), then runs script.
func recordingExecutable(t *testing.T, name, first, script string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	condition := "true"
	if first != "" {
		condition = `[ "$1" = ` + first + ` ]`
	}
	text := "#!/bin/sh\nif " + condition + "; then printf '%s\\n' \"$@\" >> '" + path + ".args'; printf '%s' " +
		"\"${MOCKAPNS_CONTROL_TOKEN:-}\" > '" + path + ".token'; fi\n" + script + "\n"
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// recordedCalls splits <path>.args into calls, each starting with first.
func recordedCalls(t *testing.T, path, first string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path + ".args")
	if err != nil {
		return nil
	}
	var calls [][]string
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == first || len(calls) == 0 {
			calls = append(calls, nil)
		}
		calls[len(calls)-1] = append(calls[len(calls)-1], line)
	}
	return calls
}

func TestBinaryModeRunsLaunchJSONArguments(t *testing.T) {
	for _, c := range loadLaunch(t).Binary.Cases {
		c := c
		t.Run(fmt.Sprint(c.RawOpts), func(t *testing.T) {
			t.Setenv("MOCKAPNS_IMAGE", "")
			bin := recordingExecutable(t, "mockapns", "", "exit 3")
			fake := &recordingTB{TB: t}
			options := append(c.options(t), mockapnstest.WithBinary(bin), mockapnstest.WithArgs("--log-level", "debug"))
			fake.run(func() { mockapnstest.Start(fake, options...) })
			if got := fake.onlyFatal(t); !strings.Contains(got, "exited (exit status 3) before it was ready") {
				t.Fatalf("Start: %q", got)
			}
			calls := recordedCalls(t, bin, "serve")
			if len(calls) != 1 {
				t.Fatalf("the binary was run %d times: %q", len(calls), calls)
			}
			args := calls[0]
			dir := ""
			for i, arg := range args {
				if arg == "--ready-file" && i+1 < len(args) {
					dir = filepath.Dir(args[i+1])
				}
			}
			want := append(substitute(t, c.Arguments, map[string]string{"ready_file": dir + "/ready.json", "workdir": dir}),
				"--log-level", "debug")
			if !reflect.DeepEqual(args, want) {
				t.Errorf("ran mockapns\n%q\nlaunch.json says\n%q", args, want)
			}
		})
	}
}

func TestContainerModeRunsLaunchJSONArguments(t *testing.T) {
	for _, c := range loadLaunch(t).Container.Cases {
		c := c
		t.Run(fmt.Sprint(c.RawOpts), func(t *testing.T) {
			engine := recordingExecutable(t, "engine", "run", `[ "$1" = run ] && { echo "no engine here" >&2; exit 1; }; exit 0`)
			fake := &recordingTB{TB: t}
			options := append(c.options(t), mockapnstest.WithImage("mockapns:spec"), mockapnstest.WithContainerEngine(engine),
				mockapnstest.WithArgs("--log-level", "debug"))
			fake.run(func() { mockapnstest.Start(fake, options...) })
			if got := fake.onlyFatal(t); !strings.Contains(got, "no engine here") {
				t.Fatalf("Start: %q", got)
			}
			calls := recordedCalls(t, engine, "run")
			if len(calls) != 1 {
				t.Fatalf("the engine ran %d containers: %q", len(calls), calls)
			}
			args, name := calls[0], ""
			for i, arg := range args {
				if arg == "--name" && i+1 < len(args) {
					name = args[i+1]
				}
			}
			want := append(substitute(t, c.Arguments, map[string]string{"name": name, "kit": "go",
				"pid": strconv.Itoa(os.Getpid()), "image": "mockapns:spec"}), "--log-level", "debug")
			if !strings.HasPrefix(name, "mockapnstest-") || !reflect.DeepEqual(args, want) {
				t.Errorf("ran the engine with\n%q\nlaunch.json says\n%q", args, want)
			}
			if token, _ := os.ReadFile(engine + ".token"); len(token) != 32 || strings.Contains(strings.Join(args, " "), string(token)) {
				t.Errorf("the control token %q should reach the engine by its environment only", token)
			}
		})
	}
}

func TestTheReadyFileHasLaunchJSONFields(t *testing.T) {
	spec := loadLaunch(t).ReadyFile
	mock := mockapnstest.Start(t, mockapnstest.WithAppleHosts(), mockapnstest.WithFCM())
	data, err := mockapnstest.ReadyFile(mock)
	if err != nil {
		t.Fatal(err)
	}
	var ready map[string]interface{}
	if err := json.Unmarshal(data, &ready); err != nil {
		t.Fatalf("the ready file is not JSON (%v): %s", err, data)
	}
	// The fields every listener the kit turns on writes; the rest depend on flags the kit does not choose.
	wanted := append([]string{"control_url", "http1_url", "ca_file", "apple_ports", "fcm_url", "fcm_ports",
		"fcm_service_account", "fcm_ca_file"}, spec.Always...)
	for _, name := range wanted {
		if _, ok := ready[name]; !ok {
			t.Errorf("the ready file has no %s: %s", name, data)
		}
	}
	for name := range ready {
		if _, ok := spec.Fields[name]; !ok {
			t.Errorf("the ready file has %s, which launch.json does not list", name)
		}
	}
}

func TestProviderTokensComeFromTheMocksOwnBinaryForLaunchJSONTime(t *testing.T) {
	spec := loadLaunch(t).ProviderToken
	if reuse := mockapnstest.TokenReuse(); reuse != time.Duration(spec.ReuseSeconds)*time.Second {
		t.Errorf("Token is reused %v; launch.json says %d s", reuse, spec.ReuseSeconds)
	}
	var wrapper, first string
	var options []mockapnstest.Option
	if suiteMode() == "container" {
		wrapper, first = recordingExecutable(t, "podman", "exec", `exec '`+engine(t)+`' "$@"`), "exec"
		options = append(options, mockapnstest.WithContainerEngine(wrapper))
	} else {
		wrapper, first = recordingExecutable(t, "mockapns", "token", `exec '`+os.Getenv("MOCKAPNS_BIN")+`' "$@"`), "token"
		options = append(options, mockapnstest.WithBinary(wrapper))
	}
	mock := mockapnstest.Start(t, options...)
	now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	defer mockapnstest.SetClock(func() time.Time { return now })()
	reuse := time.Duration(spec.ReuseSeconds) * time.Second
	tokens := []string{mock.Token()}
	now = now.Add(reuse - time.Second)
	tokens = append(tokens, mock.Token())
	now = now.Add(time.Second)
	tokens = append(tokens, mock.Token())
	want := substitute(t, spec.Binary, map[string]string{"team_id": mock.Key.TeamID, "key_id": mock.Key.KeyID,
		"key_file": mockapnstest.KeyFile(mock)})
	if suiteMode() == "container" {
		want = substitute(t, spec.Container, map[string]string{"name": mock.Container})
	}
	var calls [][]string
	for _, call := range recordedCalls(t, wrapper, first) {
		if first != "exec" || (len(call) > 2 && call[2] == "mockapns") {
			calls = append(calls, call)
		}
	}
	if !reflect.DeepEqual(calls, [][]string{want, want}) {
		t.Errorf("tokens minted with\n%q\nwant launch.json's, once at the start and once after %v:\n%q", calls, reuse, want)
	}
	if tokens[0] != tokens[1] || strings.Count(tokens[2], ".") != 2 {
		t.Errorf("tokens %q: want the first reused until %v, then a new JWT", tokens, reuse)
	}
}

// expectationCase is one file of kits/spec/expectations.
type expectationCase struct {
	Devices map[string]string `json:"devices"`
	Pushes  []struct {
		Token    string          `json:"token"`
		Topic    string          `json:"topic"`
		PushType string          `json:"push_type"`
		Payload  json.RawMessage `json:"payload"`
	} `json:"pushes"`
	Expect  map[string]json.RawMessage `json:"expect"`
	Met     bool                       `json:"met"`
	Matched []int                      `json:"matched"`
	Message []string                   `json:"message"`
}

// filter is the case's "expect" as the Go kit's Filter.
func (c expectationCase) filter(t *testing.T) mockapnstest.Filter {
	var f mockapnstest.Filter
	for key, raw := range c.Expect {
		var into interface{}
		switch key {
		case "token":
			into = &f.Token
		case "topic":
			into = &f.Topic
		case "push_type":
			into = &f.PushType
		case "reason":
			into = &f.Reason
		case "status":
			into = &f.Status
		case "count":
			into = &f.Count
		case "none":
			into = &f.None
		case "where":
			into = &f.Where
		default:
			t.Fatalf("the Go kit's Filter cannot express %q of the case's expect", key)
		}
		if err := json.Unmarshal(raw, into); err != nil {
			t.Fatalf("expect.%s: %v", key, err)
		}
	}
	return f
}

var clockTime = regexp.MustCompile(`\b\d{2}:\d{2}:\d{2}\.\d{3}\b`)

// serverLines is a failure's lines from the mock's own first line (`expect: …`) on, each clock time as {time}.
func serverLines(t *testing.T, failure string) []string {
	lines := strings.Split(failure, "\n")
	for i, line := range lines {
		if strings.HasPrefix(line, "expect: ") {
			return strings.Split(clockTime.ReplaceAllString(strings.Join(lines[i:], "\n"), "{time}"), "\n")
		}
	}
	t.Fatalf("the failure does not carry the mock's message (no line starts with 'expect: '):\n%s", failure)
	return nil
}

func TestExpectationCases(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(specDir, "expectations", "*.json"))
	if len(files) < 4 {
		t.Fatalf("kits/spec/expectations holds %d cases", len(files))
	}
	mock := mockapnstest.Start(t)
	client := mock.Client()
	for _, file := range files {
		var c expectationCase
		loadSpec(t, filepath.Join("expectations", filepath.Base(file)), &c)
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			mock.Clear()
			for token, state := range c.Devices {
				states := map[string]mockapnstest.DeviceState{"unregistered": mockapnstest.Unregistered(),
					"expired": mockapnstest.Expired(), "otherEnvironment": mockapnstest.OtherEnvironment()}
				if _, ok := states[state]; !ok {
					t.Fatalf("device state %q of the case", state)
				}
				mock.SetDevice(token, states[state])
			}
			for _, p := range c.Pushes {
				topic, pushType := p.Topic, p.PushType
				if topic == "" {
					topic = appTopic
				}
				if pushType == "" {
					pushType = "alert"
				}
				req, _ := http.NewRequest(http.MethodPost, mock.URL+"/3/device/"+p.Token, bytes.NewReader(p.Payload))
				req.Header = http.Header{"Authorization": {"bearer " + mock.Token()}, "Apns-Topic": {topic}, "Apns-Push-Type": {pushType}}
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
			}
			var seqs []uint64
			for _, n := range mock.Notifications(mockapnstest.Filter{}) {
				seqs = append(seqs, n.Seq)
			}
			if len(seqs) != len(c.Pushes) {
				t.Fatalf("the mock recorded %d of the case's %d pushes", len(seqs), len(c.Pushes))
			}
			fake := &recordingTB{TB: t}
			var got []mockapnstest.Notification
			fake.run(func() { got = mock.Expect(fake, c.filter(t)) })
			var gotSeqs, wantSeqs []uint64
			for _, n := range got {
				gotSeqs = append(gotSeqs, n.Seq)
			}
			for _, i := range c.Matched {
				wantSeqs = append(wantSeqs, seqs[i-1])
			}
			if !reflect.DeepEqual(gotSeqs, wantSeqs) {
				t.Errorf("Expect returned records %v; the case's matched are %v", gotSeqs, wantSeqs)
			}
			if c.Met {
				if len(fake.errors)+len(fake.fatals) > 0 {
					t.Errorf("the case is met, but Expect reported %q %q", fake.errors, fake.fatals)
				}
				return
			}
			want := make([]string, len(c.Message))
			for i, line := range c.Message {
				want[i] = regexp.MustCompile(`#p(\d+)\b`).ReplaceAllStringFunc(line, func(ref string) string {
					n, _ := strconv.Atoi(ref[2:])
					return "#" + strconv.FormatUint(seqs[n-1], 10)
				})
			}
			if lines := serverLines(t, fake.onlyError(t)); !reflect.DeepEqual(lines, want) {
				t.Errorf("Expect reported\n%s\nthe case says\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// openAPI is the control API's document, and the check of one request the kit sent against it.
type openAPI struct {
	doc       map[string]interface{}
	gaps      map[string]map[string][]string
	templates []string
}

func loadOpenAPI(t *testing.T) *openAPI {
	data, err := os.ReadFile(openapiPath)
	if err != nil {
		t.Fatal(err)
	}
	o := &openAPI{gaps: map[string]map[string][]string{}}
	if err := json.Unmarshal(data, &o.doc); err != nil {
		t.Fatal(err)
	}
	var gaps map[string]json.RawMessage
	loadSpec(t, "openapi-gaps.json", &gaps)
	for key, raw := range gaps {
		if strings.HasPrefix(key, "$") {
			continue
		}
		var entry struct{ Body, Query []string }
		if err := json.Unmarshal(raw, &entry); err != nil {
			t.Fatal(err)
		}
		o.gaps[key] = map[string][]string{"body": entry.Body, "query": entry.Query}
	}
	for template := range o.doc["paths"].(map[string]interface{}) {
		o.templates = append(o.templates, template)
	}
	sort.Strings(o.templates)
	return o
}

func (o *openAPI) resolve(node interface{}) map[string]interface{} {
	object, _ := node.(map[string]interface{})
	for object != nil && object["$ref"] != nil {
		var target interface{} = o.doc
		for _, part := range strings.Split(strings.TrimPrefix(object["$ref"].(string), "#/"), "/") {
			target = target.(map[string]interface{})[part]
		}
		object, _ = target.(map[string]interface{})
	}
	return object
}

var placeholder = regexp.MustCompile(`\\\{[^/]+?\\\}`)

// template is the path of openapi.json that path is, or "".
func (o *openAPI) template(path string) string {
	for _, template := range o.templates {
		if template == path {
			return template
		}
	}
	for _, template := range o.templates {
		if regexp.MustCompile("^" + placeholder.ReplaceAllString(regexp.QuoteMeta(template), "[^/]+") + "$").MatchString(path) {
			return template
		}
	}
	return ""
}

// problems says what in the request openapi.json does not declare (and openapi-gaps.json does not allow).
func (o *openAPI) problems(r mockapnstest.ControlRequest) []string {
	template := o.template(r.Path)
	if template == "" {
		return []string{r.Path + " is no path of openapi.json"}
	}
	item := o.doc["paths"].(map[string]interface{})[template].(map[string]interface{})
	operation, ok := item[strings.ToLower(r.Method)].(map[string]interface{})
	key := r.Method + " " + template
	if !ok {
		return []string{fmt.Sprintf("%s %s: openapi.json's %s has no %s", r.Method, r.Path, template, r.Method)}
	}
	declared := map[string]bool{}
	for _, list := range []interface{}{item["parameters"], operation["parameters"]} {
		parameters, _ := list.([]interface{})
		for _, p := range parameters {
			if parameter := o.resolve(p); parameter["in"] == "query" {
				declared[parameter["name"].(string)] = true
			}
		}
	}
	for _, name := range o.gaps[key]["query"] {
		declared[name] = true
	}
	var problems []string
	for name := range r.Query {
		if !declared[name] {
			problems = append(problems, fmt.Sprintf("%s: query parameter %q is not declared", key, name))
		}
	}
	if len(r.Body) == 0 {
		return problems
	}
	body, _ := operation["requestBody"].(map[string]interface{})
	content, _ := body["content"].(map[string]interface{})
	media, _ := content["application/json"].(map[string]interface{})
	schema := o.resolve(media["schema"])
	if schema == nil {
		return append(problems, key+": sends a JSON body, but openapi.json declares none")
	}
	properties, ok := schema["properties"].(map[string]interface{})
	var sent map[string]interface{}
	if !ok || json.Unmarshal(r.Body, &sent) != nil {
		return problems
	}
	known := map[string]bool{}
	for name := range properties {
		known[name] = true
	}
	for _, name := range o.gaps[key]["body"] {
		known[name] = true
	}
	for name := range sent {
		if !known[name] {
			problems = append(problems, fmt.Sprintf("%s: body key %q is not declared", key, name))
		}
	}
	sort.Strings(problems)
	return problems
}

func TestEveryControlRequestIsDeclaredInOpenAPI(t *testing.T) {
	mock := mockapnstest.Start(t, mockapnstest.WithFCM())
	sent := mockapnstest.RecordControl(mock)
	client := mock.Client()
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	online := false
	quiet := func(f func(tb testing.TB)) { // a miss says so; its request was sent all the same
		fake := &recordingTB{TB: t}
		fake.run(func() { f(fake) })
	}

	send(t, mock, client, phone, appTopic, "Shipped")
	mock.Notifications(mockapnstest.Filter{Topic: appTopic, Token: phone, PushType: "alert", Status: 200, Reason: "Unregistered"})
	quiet(func(tb testing.TB) {
		mock.Expect(tb, mockapnstest.Filter{Topic: appTopic, Token: phone, PushType: "alert", Status: 200, Reason: "X",
			Count: 2, Where: []string{"aps.alert.title=Shipped"}})
	})
	mock.Expect(t, mockapnstest.Filter{Topic: "com.example.none", None: true})
	mock.SetDevice(tablet, mockapnstest.RateLimited(5, time.Minute))
	mock.SetDevice(tablet, mockapnstest.OnlyTopics(appTopic))
	mock.SetDevice(tablet, mockapnstest.UnregisteredSince(at))
	mock.ChangeDevice(phone, mockapnstest.DeviceChange{Online: &online, OfflineUntil: at.Add(time.Hour), AppState: "background",
		Settings: map[string]interface{}{"background_budget_per_hour": 2}, PushToStartTokens: []string{watch}, At: at})
	mock.SetDeviceOnline(phone, true)
	mock.AddDeviceChange(phone, "app_state", at, map[string]interface{}{"state": "foreground"})
	mock.Device(phone)
	mock.DeviceAt(phone, at)
	mock.Timeline(phone)
	mock.TimelineUntil(phone, at)
	quiet(func(tb testing.TB) { mock.ExpectShown(tb, phone, "Shipped") })
	mock.AddFault(mockapnstest.Fault{Name: "down", Token: phone, Topic: appTopic, PushType: "alert", Count: 1,
		Action: mockapnstest.Respond(503, "ServiceUnavailable")})
	mock.AddFault(mockapnstest.Fault{Action: mockapnstest.Delay(time.Millisecond)})
	mock.NewFCMServiceAccount("other-project")
	registration := mock.RegisterFCM(mockapnstest.FCMApp{Project: mockapnstest.FCMProject, Platform: "ios",
		BundleID: "com.example.app", APNsToken: watch})
	mock.FCMMessages(mockapnstest.FCMFilter{Project: mockapnstest.FCMProject, Name: "x", Token: registration.Token, Topic: "news", Status: 200})
	dryRun := false
	quiet(func(tb testing.TB) {
		mock.ExpectFCM(tb, mockapnstest.FCMFilter{Project: mockapnstest.FCMProject, Name: "x", Token: registration.Token,
			Topic: "news", Condition: "'news' in topics", Status: 200, ValidateOnly: &dryRun, Count: 1})
	})
	quiet(func(tb testing.TB) { mock.ExpectFCM(tb, mockapnstest.FCMFilter{Token: registration.Token}) })
	mock.ExpectFCM(t, mockapnstest.FCMFilter{Topic: "nowhere", None: true})
	mock.APNsPushesOf(mockapnstest.FCMMessage{})
	mock.ClearNotifications()
	mock.Clear()
	called := "Notifications Expect SetDevice ChangeDevice SetDeviceOnline AddDeviceChange Device DeviceAt Timeline " +
		"TimelineUntil ExpectShown AddFault NewFCMServiceAccount RegisterFCM FCMMessages ExpectFCM APNsPushesOf " +
		"ClearNotifications Clear"
	// The methods that send no control request.
	local := "Transport HTTPClient CertPool TLSConfig Client Token FCMURL FCMServiceAccount FCMCAFile"
	var unexercised []string
	kind := reflect.TypeOf(mock)
	for i := 0; i < kind.NumMethod(); i++ {
		if name := kind.Method(i).Name; !strings.Contains(" "+called+" "+local+" ", " "+name+" ") {
			unexercised = append(unexercised, name)
		}
	}
	if len(unexercised) > 0 {
		t.Errorf("methods this test neither exercises nor lists as local: %v", unexercised)
	}

	openapi, requests := loadOpenAPI(t), sent()
	if len(requests) < 20 {
		t.Fatalf("only %d control requests were recorded", len(requests))
	}
	carried := map[string]map[string]bool{"/api/v1/expect": {}, "/api/v1/fcm/expect": {}}
	for _, r := range requests {
		for _, problem := range openapi.problems(r) {
			t.Error(problem)
		}
		if parameters, ok := carried[r.Path]; ok {
			for name := range r.Query {
				parameters[name] = true
			}
		}
	}
	for path, names := range map[string][]string{
		"/api/v1/expect":     {"token", "topic", "push_type", "status", "reason", "where", "count", "none"},
		"/api/v1/fcm/expect": {"project", "name", "token", "topic", "condition", "status", "validate_only", "count", "at_least", "none"},
	} {
		for _, name := range names {
			if !carried[path][name] {
				t.Errorf("no GET %s carried %s; the test should exercise every parameter the kit sends", path, name)
			}
		}
	}
}

func TestTheOpenAPICheckFindsWhatOpenAPIDoesNotDeclare(t *testing.T) {
	o := loadOpenAPI(t)
	cases := []struct {
		request mockapnstest.ControlRequest
		want    string
	}{
		{mockapnstest.ControlRequest{Method: "GET", Path: "/api/v1/expect", Query: map[string][]string{"token": {"x"}, "title": {"y"}}},
			`GET /api/v1/expect: query parameter "title" is not declared`},
		{mockapnstest.ControlRequest{Method: "PATCH", Path: "/api/v1/faults"}, "PATCH /api/v1/faults: openapi.json's /api/v1/faults has no PATCH"},
		{mockapnstest.ControlRequest{Method: "PUT", Path: "/api/v1/devices/abcd", Body: []byte(`{"state":"expired","colour":"red"}`)},
			`PUT /api/v1/devices/{token}: body key "colour" is not declared`},
		{mockapnstest.ControlRequest{Method: "GET", Path: "/api/v1/nowhere"}, "/api/v1/nowhere is no path of openapi.json"},
	}
	for _, c := range cases {
		if got := o.problems(c.request); !reflect.DeepEqual(got, []string{c.want}) {
			t.Errorf("%+v: %q, want %q", c.request, got, c.want)
		}
	}
	if got := o.problems(mockapnstest.ControlRequest{Method: "POST", Path: "/api/v1/devices/ab/changes",
		Body: []byte(`{"change":"tap","apns_id":"x"}`)}); len(got) != 0 {
		t.Errorf("openapi-gaps.json's entry should allow tap's apns_id: %q", got)
	}
}
