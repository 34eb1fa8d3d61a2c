package store

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// TestCopyValuesFollowTheColumns checks that copyValues lists jobRow's
// fields in the order of copyColumns, so that no value lands in another
// column.
func TestCopyValuesFollowTheColumns(t *testing.T) {
	var row jobRow
	v := reflect.ValueOf(&row).Elem()
	// Give every field a distinct value, so that a swap shows.
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("s" + string(rune('a'+i)))
		case reflect.Int64:
			f.SetInt(int64(i))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
			if f.Elem().Kind() == reflect.String {
				f.Elem().SetString("p" + string(rune('a'+i)))
			}
			if f.Elem().Kind() == reflect.Float64 {
				f.Elem().SetFloat(float64(i))
			}
		case reflect.Slice:
			if f.Type().Elem().Kind() == reflect.Uint8 { // given: JSON, written as text
				f.SetBytes([]byte(`{"n":` + string(rune('0'+i%10)) + `}`))
				continue
			}
			f.Set(reflect.ValueOf([]string{"l" + string(rune('a'+i))}))
		}
	}
	values := row.copyValues()
	table := bun.NewDB(nil, pgdialect.New()).Table(typeOfJobRow)
	require.Len(t, values, len(copyColumns))
	for i, name := range copyColumns {
		field, ok := table.FieldMap[name]
		require.True(t, ok, name)
		want := v.FieldByIndex(field.Index).Interface()
		if b, ok := want.([]byte); ok && name == "given" { // JSON, written as text
			want = string(b)
		}
		assert.Equal(t, want, values[i], "column %s", name)
	}
}

// TestScanTargetsFollowTheColumns checks that scanTargets points at
// jobRow's fields in the order of copyColumns.
func TestScanTargetsFollowTheColumns(t *testing.T) {
	var row jobRow
	v := reflect.ValueOf(&row).Elem()
	targets := row.scanTargets()
	table := bun.NewDB(nil, pgdialect.New()).Table(typeOfJobRow)
	require.Len(t, targets, len(copyColumns))
	assert.Equal(t, []string{"content_hash", "filter_keys", "given"}, copyColumns[len(copyColumns)-unreadColumns:],
		"jobByIDSQL leaves the last unreadColumns columns out")
	for i, name := range copyColumns {
		field := table.FieldMap[name]
		assert.Equal(t, v.FieldByIndex(field.Index).Addr().Pointer(), reflect.ValueOf(targets[i]).Pointer(), "column %s", name)
	}
}
