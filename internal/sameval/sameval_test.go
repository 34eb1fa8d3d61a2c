package sameval

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEqual(t *testing.T) {
	type inner struct{ L []string }
	type rec struct {
		S string
		P *float64
		I inner
	}
	one, other := 1.0, 1.0
	two := 2.0
	for _, tc := range []struct {
		name string
		a, b rec
		want bool
	}{
		{"zero values", rec{}, rec{}, true},
		{"nil and empty list", rec{I: inner{L: nil}}, rec{I: inner{L: []string{}}}, true},
		{"lists differ", rec{I: inner{L: []string{"a"}}}, rec{I: inner{L: []string{"b"}}}, false},
		{"list lengths differ", rec{I: inner{L: []string{"a"}}}, rec{I: inner{L: []string{"a", "b"}}}, false},
		{"pointers to equal values", rec{P: &one}, rec{P: &other}, true},
		{"pointers to other values", rec{P: &one}, rec{P: &two}, false},
		{"nil and non-nil pointer", rec{P: &one}, rec{}, false},
		{"strings differ", rec{S: "a"}, rec{S: "b"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Equal(reflect.ValueOf(tc.a), reflect.ValueOf(tc.b)))
			assert.Equal(t, tc.want, Equal(reflect.ValueOf(tc.b), reflect.ValueOf(tc.a)))
		})
	}
}
