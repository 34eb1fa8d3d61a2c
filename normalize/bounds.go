// Record bounds: the most a job record's fields may hold before the record is invalid.

package normalize

import (
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize/places"
	"github.com/jobsd-dev/jobsd/normalize/terms"
	"github.com/jobsd-dev/jobsd/normalize/titles"
)

// Bounds of a record's fields (Job). A record over any of them is invalid,
// and Job says which field and bound before it normalizes anything: the
// bounds are well above what real postings need, and they keep the work of
// normalizing one record bounded whatever its source sends. Lengths count
// characters (Unicode code points) unless a bound says bytes.
const (
	// MaxTitleLength is the most characters of a title (the taxonomy's
	// own bound: a longer title names nothing).
	MaxTitleLength = titles.MaxTitleLength
	// MaxCompanyLength is the most characters of a company name.
	MaxCompanyLength = 500
	// MaxLocationLength is the most characters of location.full, which may
	// list several places ("Austin, TX; Remote - US; London, UK"): the
	// gazetteer's own bound.
	MaxLocationLength = places.MaxLocationLength
	// MaxPlaceNameLength is the most characters of an item of
	// location.city, location.state and location.country.
	MaxPlaceNameLength = 300
	// MaxJobListItems is the most items of each list of a record.
	MaxJobListItems = 200
	// MaxListItemLength is the most characters of an item of a list of
	// terms: skills, tools, technical and soft skills, benefits,
	// certifications, visa sponsorship, education levels and majors,
	// security clearances (the vocabularies' own bound: a longer item is no
	// term).
	MaxListItemLength = terms.MaxListItemLength
	// MaxProseItemLength is the most characters of an item of a list of
	// sentences or paragraphs: responsibilities, required and preferred
	// qualifications, education, visa requirements.
	MaxProseItemLength = 2000
	// MaxDescriptionBytes is the most bytes of description,
	// description_raw and summary (a long posting's HTML is tens of KB).
	MaxDescriptionBytes = 256 << 10
	// MaxURLLength is the most bytes of url and company_logo.
	MaxURLLength = 2048
	// MaxFieldLength is the most characters of every other text field
	// (id, employment_type, experience_level, clearance_status, source,
	// posted_at, valid_through, the salary's currency and period, the
	// category's members).
	MaxFieldLength = 500
)

// A field's bound: the most characters (or bytes) of its text, and of
// each item of a list.
type bound struct {
	max   int
	bytes bool // max counts bytes, not characters
}

// fieldBounds are the bounds of the fields named by their JSON paths;
// other text fields and list items have MaxFieldLength, other lists'
// items MaxListItemLength.
var fieldBounds = map[string]bound{
	"title":                    {max: MaxTitleLength},
	"company":                  {max: MaxCompanyLength},
	"location.full":            {max: MaxLocationLength},
	"location.city":            {max: MaxPlaceNameLength},
	"location.state":           {max: MaxPlaceNameLength},
	"location.country":         {max: MaxPlaceNameLength},
	"summary":                  {max: MaxDescriptionBytes, bytes: true},
	"description":              {max: MaxDescriptionBytes, bytes: true},
	"description_raw":          {max: MaxDescriptionBytes, bytes: true},
	"url":                      {max: MaxURLLength, bytes: true},
	"company_logo":             {max: MaxURLLength, bytes: true},
	"responsibilities":         {max: MaxProseItemLength},
	"required_qualifications":  {max: MaxProseItemLength},
	"preferred_qualifications": {max: MaxProseItemLength},
	"education":                {max: MaxProseItemLength},
	"visa_requirements":        {max: MaxProseItemLength},
}

// overBounds returns why the fields of j are over their bounds, one
// error per field; none when every field is within them. It reads each
// text once, so its work is linear in the record's size.
func overBounds(j *domain.Job) []error {
	var errs []error
	walkBounds(reflect.ValueOf(j).Elem(), "", &errs)
	return errs
}

func walkBounds(v reflect.Value, path string, errs *[]error) {
	switch v.Kind() {
	case reflect.String:
		b, ok := fieldBounds[path]
		if !ok {
			b = bound{max: MaxFieldLength}
		}
		if n, over := b.over(v.String()); over {
			*errs = append(*errs, fmt.Errorf("%s is longer than %d %s (%d)", path, b.max, b.unit(), n))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			walkBounds(v.Elem(), path, errs)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.String {
			return
		}
		if v.Len() > MaxJobListItems {
			*errs = append(*errs, fmt.Errorf("%s has %d items, more than %d", path, v.Len(), MaxJobListItems))
			return
		}
		b, ok := fieldBounds[path]
		if !ok {
			b = bound{max: MaxListItemLength}
		}
		for i := range v.Len() {
			if n, over := b.over(v.Index(i).String()); over {
				*errs = append(*errs, fmt.Errorf("%s item %d is longer than %d %s (%d)", path, i+1, b.max, b.unit(), n))
				return
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			tag, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			if tag == "" || tag == "-" || !v.Type().Field(i).IsExported() {
				continue
			}
			child := tag
			if path != "" {
				child = path + "." + tag
			}
			walkBounds(v.Field(i), child, errs)
		}
	}
}

// overFieldBound returns why s, the text of the field named path
// (valid_through, which domain.Job does not hold), is over its bound, or
// nil.
func overFieldBound(path, s string) error {
	b, ok := fieldBounds[path]
	if !ok {
		b = bound{max: MaxFieldLength}
	}
	if n, over := b.over(s); over {
		return fmt.Errorf("%s is longer than %d %s (%d)", path, b.max, b.unit(), n)
	}
	return nil
}

// over returns the length of s in b's unit, and whether it is over b. A
// text of at most b.max bytes is within any bound, uncounted.
func (b bound) over(s string) (int, bool) {
	if len(s) <= b.max {
		return len(s), false
	}
	if b.bytes {
		return len(s), true
	}
	n := utf8.RuneCountInString(s)
	return n, n > b.max
}

func (b bound) unit() string {
	if b.bytes {
		return "bytes"
	}
	return "characters"
}
