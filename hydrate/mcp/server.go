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

// invalidParams is the seed's -32602 error: {"validation": why}.
func invalidParams(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidParams, Message: "Invalid params", Data: map[string]string{"validation": fmt.Sprintf(format, args...)}}
}

// maxLine bounds one message: tool arguments are a few hundred bytes.
const maxLine = 4 << 20

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
					b, _ = json.Marshal(response{JSONRPC: "2.0", ID: resp.ID, Error: &Error{Code: CodeInternalError, Message: merr.Error()}})
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

// handle answers one message; nil for a notification.
func (s *Server) handle(line []byte) (resp *response) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		var arr []json.RawMessage
		if json.Unmarshal(line, &arr) == nil {
			return &response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &Error{Code: CodeInvalidRequest, Message: "batches are not supported"}}
		}
		return &response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &Error{Code: CodeParseError, Message: "Parse error"}}
	}
	notification := len(req.ID) == 0
	if req.JSONRPC != "2.0" || req.Method == "" {
		if notification {
			return nil
		}
		return &response{JSONRPC: "2.0", ID: req.ID, Error: &Error{Code: CodeInvalidRequest, Message: "Invalid Request"}}
	}
	defer func() {
		if r := recover(); r != nil {
			resp = &response{JSONRPC: "2.0", ID: req.ID, Error: &Error{Code: CodeInternalError, Message: fmt.Sprintf("internal error: %v", r)}}
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
				"Call session_rehydrate with your gsd user as sessionId when you start or after a compaction, " +
				"and task_status_set as you start and finish tasks.",
		}, nil
	case "ping":
		return struct{}{}, nil
	case "tools/list":
		return map[string]any{"tools": toolList()}, nil
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
	return nil, &Error{Code: CodeMethodNotFound, Message: "Method not found: " + method}
}
