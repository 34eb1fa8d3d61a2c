// Package sameval compares values the way stored records are compared:
// field by field, with an empty slice equal to a nil one (a list stored
// empty and a list never given are the same list).
package sameval

import "reflect"

// Equal reports whether a and b, two values of one type, are equal, with
// an empty slice equal to a nil one, pointers compared by what they point
// at, and structs field by field.
func Equal(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !Equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return Equal(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if !Equal(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	default:
		return a.Equal(b)
	}
}
