package report

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"time"
)

// Schema is the JSON Schema of what encoding/json writes for a value of type t: every field
// without omitempty is required, a pointer, slice or map may be null: each MCP tool's outputSchema.
func Schema(t reflect.Type) map[string]any {
	if t == nil {
		return map[string]any{"type": "object"}
	}
	return schemaFor(t, map[reflect.Type]bool{})
}

var (
	timeType          = reflect.TypeFor[time.Time]()
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || reflect.PointerTo(t).Implements(iface)
}

func schemaFor(t reflect.Type, seen map[reflect.Type]bool) map[string]any {
	nullable := false
	for t.Kind() == reflect.Pointer {
		t, nullable = t.Elem(), true
	}
	s := map[string]any{}
	switch {
	case t == timeType:
		s["type"], s["format"] = "string", "date-time"
	case implements(t, jsonMarshalerType):
		// Whatever it writes: no constraint.
	case implements(t, textMarshalerType):
		s["type"] = "string"
	default:
		switch t.Kind() {
		case reflect.Bool:
			s["type"] = "boolean"
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			s["type"] = "integer"
		case reflect.Float32, reflect.Float64:
			s["type"] = "number"
		case reflect.String:
			s["type"] = "string"
		case reflect.Slice, reflect.Array:
			if t.Elem().Kind() == reflect.Uint8 {
				s["type"] = "string" // base64
				break
			}
			s["type"], s["items"] = "array", schemaFor(t.Elem(), seen)
			nullable = nullable || t.Kind() == reflect.Slice
		case reflect.Map:
			s["type"], s["additionalProperties"] = "object", schemaFor(t.Elem(), seen)
			nullable = true
		case reflect.Struct:
			if seen[t] {
				return s // a recursive type: no constraint below this level
			}
			seen[t] = true
			props, required := map[string]any{}, []string{}
			structFields(t, seen, props, &required)
			delete(seen, t)
			s["type"], s["properties"] = "object", props
			if len(required) > 0 {
				s["required"] = required
			}
		}
	}
	if nullable {
		if typ, ok := s["type"].(string); ok {
			s["type"] = []string{typ, "null"}
		}
	}
	return s
}

// structFields adds the JSON fields of struct type t to props, as encoding/json writes them
// (an embedded struct's fields promoted).
func structFields(t reflect.Type, seen map[reflect.Type]bool, props map[string]any, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				structFields(et, seen, props, required)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := props[name]; dup {
			continue // the shallower field wins, as in encoding/json
		}
		props[name] = schemaFor(f.Type, seen)
		if !strings.Contains(","+opts+",", ",omitempty,") && !strings.Contains(","+opts+",", ",omitzero,") {
			*required = append(*required, name)
		}
	}
}
