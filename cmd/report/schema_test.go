package report

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/roadmap"
)

// The output schema is what encoding/json writes: omitempty fields optional, pointers, slices and
// maps nullable, times and text marshalers strings, embedded fields promoted.
func TestSchema(t *testing.T) {
	type inner struct {
		N int `json:"n"`
	}
	type v struct {
		inner
		S   string         `json:"s"`
		P   *string        `json:"p"`
		O   int            `json:"o,omitempty"`
		L   []inner        `json:"l"`
		M   map[string]int `json:"m"`
		T   time.Time      `json:"t"`
		Ph  roadmap.PhaseNum
		Any any `json:"any"`
		Off int `json:"-"`
	}
	got, _ := json.Marshal(Schema(reflect.TypeFor[v]()))
	want := `{"properties":{"Ph":{"type":"string"},"any":{},"l":{"items":{"properties":{"n":{"type":"integer"}},"required":["n"],"type":"object"},"type":["array","null"]},` +
		`"m":{"additionalProperties":{"type":"integer"},"type":["object","null"]},"n":{"type":"integer"},"o":{"type":"integer"},"p":{"type":["string","null"]},` +
		`"s":{"type":"string"},"t":{"format":"date-time","type":"string"}},"required":["n","s","p","l","m","t","Ph","any"],"type":"object"}`
	if string(got) != want {
		t.Errorf("schema\n%s\nwant\n%s", got, want)
	}
}
