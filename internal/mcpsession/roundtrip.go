package mcpsession

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/transport"
)

// roundTripper is the one layer under the go-sdk: each POST goes through
// the request path, and a 2xx answer is checked before the go-sdk sees it.
type roundTripper struct{ s *Session }

// failure carries the SDK's typed error through the go-sdk, which wraps
// it; Session.do unwraps it.
type failure struct{ err error }

func (f *failure) Error() string { return f.err.Error() }

// message is what the layer reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage                  `json:"id"`
	Method string                           `json:"method"`
	Params struct{ Name string }            `json:"params"`
	Result struct{ ProtocolVersion string } `json:"result"`
}

// RoundTrip implements http.RoundTripper.
func (t roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	s := t.s
	body, err := transport.ReadRequest(req)
	if err != nil {
		return nil, err
	}
	if req.Method != http.MethodPost {
		return nil, fmt.Errorf("partner: the MCP servers are stateless: the SDK sends only POST, not %s", req.Method)
	}
	var msg message
	json.Unmarshal(body, &msg) // the go-sdk's own encoding: it decodes
	readOnly := msg.Method != "tools/call" || s.ReadOnly(msg.Params.Name)
	resp, err := s.runner.Send(req.Context(), transport.Request{
		Kind: transport.MCP, Method: http.MethodPost, URL: req.URL, Auth: s.tokens, Payload: body,
		Header: req.Header, Idempotent: readOnly, Setting: s.setting,
	})
	if err != nil {
		var ae *apierr.APIError
		switch {
		case !errors.As(err, &ae):
		case ae.StatusCode == http.StatusNotFound && req.Header.Get("Mcp-Session-Id") != "":
			// The server forgot a session it gave out: the go-sdk turns
			// this into ErrSessionMissing, and the Session reconnects.
			return answer(req, http.StatusNotFound, http.Header{}, ae.Body), nil
		case msg.Method == "initialize" && ae.WrongURL():
			err = s.misconfigured(err)
		}
		return nil, &failure{err}
	}
	if len(msg.ID) > 0 { // a call: its answer must hold its response
		if problem := check(msg, resp); problem != "" {
			return nil, &failure{s.unusable(msg, problem)}
		}
	}
	return answer(req, resp.StatusCode, resp.Header, resp.Body), nil
}

// check returns what makes a 2xx answer to the call msg unusable, or "".
// It never quotes the answer: a token may sit in it.
func check(msg message, resp transport.Response) string {
	ct := resp.Header.Get("Content-Type")
	if ct != "application/json" { // the servers' answer needs no parse
		ct, _, _ = mime.ParseMediaType(ct)
	}
	var events [][]byte
	switch ct {
	case "application/json":
		events = [][]byte{resp.Body}
	case "text/event-stream":
		var ok bool
		if events, ok = sseData(resp.Body); !ok {
			return "the answer is not a well-formed event stream"
		}
	default:
		return fmt.Sprintf("the answer is %s, not JSON-RPC", apierr.Quote(cmp.Or(ct, "without a Content-Type")))
	}
	for _, data := range events {
		var got message
		if err := json.Unmarshal(data, &got); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return fmt.Sprintf("the answer is not JSON (invalid at byte %d)", se.Offset)
			}
			if len(bytes.TrimSpace(data)) == 0 {
				return "the answer is empty"
			}
			return "the answer is not a JSON-RPC message"
		}
		if !bytes.Equal(bytes.TrimSpace(got.ID), bytes.TrimSpace(msg.ID)) || got.Method != "" {
			continue // a notification, or another call's response
		}
		if msg.Method == "initialize" && !slices.Contains(mcp.SupportedProtocolVersions(), got.Result.ProtocolVersion) {
			return fmt.Sprintf("the server speaks MCP protocol version %s, which the SDK does not", apierr.Quote(got.Result.ProtocolVersion))
		}
		return ""
	}
	return "the answer holds no response to the call"
}

// sseData returns the data of each message event of an event stream,
// framed as the go-sdk frames it; ok is false for a line without a ':', on
// which the go-sdk would end the connection.
func sseData(body []byte) (events [][]byte, ok bool) {
	var data []string
	name := ""
	end := func() {
		if data != nil && (name == "" || name == "message") {
			events = append(events, []byte(strings.Join(data, "\n")))
		}
		data, name = nil, ""
	}
	for line := range strings.Lines(string(body)) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			end()
			continue
		}
		field, value, found := strings.Cut(line, ":")
		switch {
		case !found:
			return nil, false
		case field == "event":
			name = strings.TrimSpace(value)
		case field == "data":
			data = append(data, strings.TrimSpace(value))
		}
	}
	end()
	return events, true
}

// unusable is the error for a 2xx answer that cannot be used: on the
// first contact a configuration error (the URL is not the MCP server's),
// afterwards an unexpected answer, for this call only.
func (s *Session) unusable(msg message, problem string) error {
	name := msg.Method
	if msg.Params.Name != "" {
		name += " " + msg.Params.Name
	}
	err := fmt.Errorf("partner: POST %s (%s): %w: %s", s.path, name, apierr.ErrUnexpectedResponse, problem)
	if msg.Method == "initialize" {
		return s.misconfigured(err)
	}
	if msg.Method == "tools/call" && !s.ReadOnly(msg.Params.Name) {
		err = fmt.Errorf("%w; the call may have run and was not sent again", err)
	}
	return err
}

// misconfigured classifies a first contact's failure as ErrConfiguration
// naming the setting and the path tried.
func (s *Session) misconfigured(err error) error {
	return apierr.Classify(apierr.ErrConfiguration, err, fmt.Sprintf(
		"check %s: the path %s of its host did not answer as the service's MCP server; users need not reconnect", s.setting, s.path))
}

// answer is the response the go-sdk reads: the body already read in full.
func answer(req *http.Request, status int, h http.Header, body []byte) *http.Response {
	return &http.Response{
		Status: strconv.Itoa(status) + " " + http.StatusText(status), StatusCode: status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: h,
		Body: &readBody{*bytes.NewReader(body)}, ContentLength: int64(len(body)), Request: req,
	}
}

// readBody is a body already read: io.NopCloser(bytes.NewReader(b)) in
// one allocation.
type readBody struct{ bytes.Reader }

func (*readBody) Close() error { return nil }
