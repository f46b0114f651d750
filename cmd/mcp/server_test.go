package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gsd-tools/gsd/hydrate"
)

// serve runs a server whose project never opens over in and returns its response lines.
func serve(t *testing.T, in string) []string {
	t.Helper()
	s := &Server{Name: "gsd", Version: "test", Open: func(string, string) (*hydrate.Env, error) {
		return nil, errors.New("no project here")
	}}
	var out bytes.Buffer
	if err := s.Serve(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if out.Len() == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

func TestServeNotificationsGetNoAnswer(t *testing.T) {
	got := serve(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+`{"jsonrpc":"2.0","method":"tools/list"}`+"\n\n   \n")
	if len(got) != 0 {
		t.Fatalf("answered notifications: %q", got)
	}
}

func TestServeOverlongLine(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", maxLine) + `"}}`
	got := serve(t, long+"\n"+`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n")
	if len(got) != 2 || !strings.Contains(got[0], `"code":-32700`) || got[1] != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatalf("got %q", got)
	}
}

// A tool whose project cannot be opened is a tool error the agent reads, not a protocol error;
// invalid arguments are checked before the project is opened.
func TestServeToolErrors(t *testing.T) {
	got := serve(t, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"session_state_get","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"session_rehydrate","arguments":{"sessionId":"ann","instanceId":7}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"session_rehydrate","arguments":"ann"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`,
	}, "\n"))
	if len(got) != 4 {
		t.Fatalf("got %q", got)
	}
	var r1 struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct{ Text string }
		}
	}
	if err := json.Unmarshal([]byte(got[0]), &r1); err != nil || !r1.Result.IsError || r1.Result.Content[0].Text != "gsd: no project here" {
		t.Errorf("tool error: %s", got[0])
	}
	if !strings.Contains(got[1], `"error":{"code":-32602,"message":"Invalid params: instanceId must be a string","data":{"validation":"instanceId must be a string"}}`) {
		t.Errorf("bad argument type: %s", got[1])
	}
	if !strings.Contains(got[2], `"validation":"arguments must be an object"`) {
		t.Errorf("arguments not an object: %s", got[2])
	}
	var list struct {
		Result struct {
			Tools []Tool `json:"tools"`
		}
	}
	if err := json.Unmarshal([]byte(got[3]), &list); err != nil || len(list.Result.Tools) != 9 {
		t.Fatalf("tools/list: %s", got[3])
	}
	for _, tl := range list.Result.Tools {
		if tl.InputSchema["type"] != "object" || tl.Description == "" {
			t.Errorf("%s: schema %v", tl.Name, tl.InputSchema)
		}
	}
}

// A result over MaxResult is a tool error that says so, with no structured content.
func TestTextResultOverLimit(t *testing.T) {
	r := textResult(map[string]string{"x": strings.Repeat("a", MaxResult)})
	text := r["content"].([]map[string]any)[0]["text"].(string)
	if r["isError"] != true || !strings.Contains(text, "over the 65536 an MCP result may hold") || r["structuredContent"] != nil {
		t.Fatalf("%v", r)
	}
}
