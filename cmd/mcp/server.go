// Package mcp serves gsd's session tools over the Model Context Protocol: JSON-RPC 2.0 messages,
// one per line, on a reader and a writer (stdio).
//
// It is a small hand-written implementation of the part of the protocol a tools-only server
// needs (initialize, notifications/initialized, ping, tools/list, tools/call) rather than the
// official SDK, whose package initialisation would be paid by every gsd process, hooks
// included. Conformance is proved in the tests with the official SDK's client.
//
// The server holds no state between calls: each tool call opens the project again and reads
// the disk as it is.
//
// It sits under cmd, beside the command line, because it is the same kind of thing: a front
// door that turns a protocol's requests into calls of hydrate's use cases and renders their
// answers, as the command line's --json renders them: with cmd/report, which both import. It
// decides nothing itself, and nothing under hydrate imports it.
package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// ProtocolVersions are the MCP revisions the server speaks, newest first. An initialize asking
// for one of them gets it; any other gets the newest.
var ProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// JSON-RPC error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// Opener opens the project for a gsd user ("" means the server's own user), as the agent
// instance ("" when unknown) the journal should name. Each tool call opens the project anew and
// closes it when it returns (a server that kept them open would run out of descriptors).
type Opener func(user, instance string) (*hydrate.Env, error)

// Server is the MCP server.
type Server struct {
	Name, Version string
	Open          Opener

	opened []*hydrate.Env // the projects the call being answered opened (openEnv)
}

type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// Error is a JSON-RPC error object.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

// invalidParams is the seed's -32602 error, {"validation": why}, with why in its message too:
// a client that shows only the message (the official SDK's) still says what was wrong.
func invalidParams(format string, args ...any) *Error {
	why := fmt.Sprintf(format, args...)
	return &Error{Code: CodeInvalidParams, Message: "Invalid params: " + why, Data: map[string]string{"validation": why}}
}

// maxLine bounds one message read: tool arguments are a few hundred bytes.
const maxLine = 4 << 20

// Bounds of what the server writes, whatever it is asked.
const (
	// MaxResult bounds the text of a tool's result (its structuredContent is the same value):
	// a longer one is answered with a tool error saying so.
	MaxResult = 64 << 10
	// MaxMessage bounds every message the server writes; MaxResult keeps a tool's well under
	// it, so it only ever catches a bug.
	MaxMessage = 256 << 10
	// maxID bounds a request's id, which the response echoes.
	maxID = 128
)

// Serve reads messages from in until it ends and writes the responses to out, one per line.
func (s *Server) Serve(in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	for {
		line, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 {
			if resp := s.handle(line); resp != nil {
				b, merr := json.Marshal(resp)
				if merr != nil {
					b, _ = json.Marshal(response{JSONRPC: "2.0", ID: resp.ID, Error: &Error{Code: CodeInternalError, Message: textfmt.Excerpt(merr.Error())}})
				}
				if len(b) > MaxMessage {
					b, _ = json.Marshal(response{JSONRPC: "2.0", ID: resp.ID, Error: &Error{Code: CodeInternalError,
						Message: fmt.Sprintf("the response is %d bytes, over the %d gsd writes", len(b), MaxMessage)}})
				}
				w.Write(b)
				w.WriteByte('\n')
				if ferr := w.Flush(); ferr != nil {
					return ferr
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line, refusing (and skipping) one longer than maxLine.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) <= maxLine {
			line = append(line, chunk...)
		} else {
			line = []byte("{") // too long: answered as a parse error
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, err
	}
}

// handle answers one message; nil for a notification. Whatever JSON-RPC 2.0 calls an Invalid
// Request ({}, null, a number, a method that is not a string, an id that is neither a string
// nor a number) gets error -32600 with id null, never silence.
func (s *Server) handle(line []byte) (resp *response) {
	invalid := func(msg string) *response {
		return &response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &Error{Code: CodeInvalidRequest, Message: msg}}
	}
	if !json.Valid(line) {
		return &response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &Error{Code: CodeParseError, Message: "Parse error"}}
	}
	switch bytes.TrimSpace(line)[0] {
	case '[':
		return invalid("batches are not supported")
	case '{':
	default:
		return invalid("Invalid Request: not an object")
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return invalid("Invalid Request")
	}
	if len(req.ID) > 0 && !validID(req.ID) {
		return invalid(fmt.Sprintf("Invalid Request: an id must be a string or a number of at most %d bytes", maxID))
	}
	notification := len(req.ID) == 0
	if req.JSONRPC != "2.0" || req.Method == "" {
		if notification {
			return invalid("Invalid Request")
		}
		return &response{JSONRPC: "2.0", ID: req.ID, Error: &Error{Code: CodeInvalidRequest, Message: "Invalid Request"}}
	}
	defer func() {
		if r := recover(); r != nil {
			resp = &response{JSONRPC: "2.0", ID: req.ID, Error: &Error{Code: CodeInternalError, Message: textfmt.Excerpt(fmt.Sprintf("internal error: %v", r))}}
			if notification {
				resp = nil
			}
		}
	}()
	result, rpcErr := s.dispatch(req.Method, req.Params)
	if notification {
		return nil
	}
	if rpcErr != nil {
		return &response{JSONRPC: "2.0", ID: req.ID, Error: rpcErr}
	}
	return &response{JSONRPC: "2.0", ID: req.ID, Result: result}
}

// validID says whether id is what a response may echo: a string or a number (or null), short.
func validID(id json.RawMessage) bool {
	if len(id) > maxID {
		return false
	}
	switch id[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'n':
		return true
	}
	return false
}

func (s *Server) dispatch(method string, params json.RawMessage) (any, *Error) {
	switch method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(params, &p)
		v := ProtocolVersions[0]
		if slices.Contains(ProtocolVersions, p.ProtocolVersion) {
			v = p.ProtocolVersion
		}
		return map[string]any{
			"protocolVersion": v,
			"capabilities":    map[string]any{"tools": map[string]any{"listChanged": false}},
			"serverInfo":      map[string]any{"name": s.Name, "version": s.Version},
			"instructions": "gsd keeps a GSD project's per-user sessions (.planning/sessions/<user>/current-plan.md). " +
				"Call session_hydrate when you start or after a compaction (it starts a session from the active plan " +
				"when there is none; session_start starts one from a plan you name), project_progress for where the " +
				"project stands, and task_status_set as you start and finish tasks. Results are gsd's --json objects.",
		}, nil
	case "ping":
		return struct{}{}, nil
	case "tools/list":
		return map[string]any{"tools": s.toolList()}, nil
	case "tools/call":
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, invalidParams("params: %v", err)
		}
		return s.call(p.Name, p.Arguments)
	case "notifications/initialized", "notifications/cancelled":
		return nil, nil
	}
	return nil, &Error{Code: CodeMethodNotFound, Message: "Method not found: " + textfmt.Excerpt(method)}
}
