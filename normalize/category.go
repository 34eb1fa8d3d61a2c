package normalize

import (
	"github.com/jobsd-dev/jobsd/domain"
)

// Category returns the category a posting shows, the one category the
// service knows it by: the category filters, the title intent, the
// category facets, company pages and similar jobs all use it. It is what
// the source gave, spelled canonically, with what the given members imply
// (a known specialization names its role, a known role its field), then
// completed from the posting's title where the title does not contradict
// it:
//
//   - field: the given field; else the field of the given (or implied)
//     role; else the title's field;
//   - role: the given role; else the role of the given specialization,
//     when it is of the field; else the title's role, when the field is
//     the title's and no known specialization was given;
//   - specialization: the given specialization; else the title's, when
//     the field and the role are the title's.
//
// A given member is never replaced, a derived one never contradicts a
// given one, and a posting given nothing shows its title's category (none
// when the taxonomy does not know the title). Unknown given members are
// kept as given and imply nothing.
func (n *Normalizer) Category(given domain.Category, title string) domain.Category {
	c := domain.Category{
		Field:          givenMember(given.Field, n.CategoryField),
		Role:           givenMember(given.Role, n.CategoryRole),
		Specialization: givenMember(given.Specialization, n.CategorySpecialization),
	}
	agrees := func(given *string, derived string) bool { return given == nil || *given == derived }
	var spec TitleCategory // the given specialization, when the taxonomy knows it
	if c.Specialization != nil {
		spec, _ = n.taxonomy.Named(*c.Specialization, LevelSpecialization)
	}
	if c.Role == nil && spec.Role != "" && agrees(c.Field, spec.Field) {
		c.Role = &spec.Role
	}
	if c.Field == nil && c.Role != nil {
		c.Field = nonEmpty(n.taxonomy.FieldOfRole(*c.Role))
	}
	tc, ok := n.Title(title)
	if !ok {
		return c
	}
	if c.Field == nil {
		c.Field = nonEmpty(tc.Field)
	}
	if c.Role == nil && spec.Role == "" && agrees(c.Field, tc.Field) {
		c.Role = nonEmpty(tc.Role)
	}
	if c.Specialization == nil && agrees(c.Field, tc.Field) && agrees(c.Role, tc.Role) {
		c.Specialization = nonEmpty(tc.Specialization)
	}
	return c
}

// givenMember returns a given category member spelled canonically by
// norm, or nil when none was given (nil or blank).
func givenMember(p *string, norm func(string) string) *string {
	if p = optional(p); p == nil {
		return nil
	}
	v := norm(*p)
	return &v
}
