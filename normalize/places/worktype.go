// Work arrangements: the remote, hybrid and on-site phrases (and schedules) of location text.

package places

import (
	"regexp"
	"strings"
)

// arrangementRE finds the phrases of work arrangements in location text.
var arrangementRE = regexp.MustCompile(`(?i)\b(?:100\s*%\s*remote|fully[\s-]+remote|remote[\s-]+(?:first|friendly|only|ok|eligible|optional|possible)|remote(?:ly)?|wfh|work(?:ing)?[\s-]+from[\s-]+(?:home|anywhere)|home[\s-]*(?:based|office)|tele-?(?:commut|work)\w*|distributed|anywhere|worldwide|virtual|hybrid|on[\s-]?site|in[\s-]office|office[\s-]based|in[\s-]person)\b`)

var notApplicableRE = regexp.MustCompile(`(?i)\bn/a\b`)

// scheduleRE matches how often or how much a job asks to be somewhere,
// which location text carries beside places: "2 days/week", "3x per week",
// "4 days a week", "25% travel", "Mon-Fri". Its words ("week") are no
// places.
var scheduleRE = regexp.MustCompile(`(?i)\b\d+(?:\s*(?:-|to)\s*\d+)?\s*(?:x|times|days?|d)\s*(?:/|a|an|per|each|every)?\s*(?:week|wk|month|mo)\b|\b\d+\s*%\s*travel\b|\b(?:mon(?:day)?|tue(?:sday)?|wed(?:nesday)?|thu(?:rsday)?)\s*(?:-|to|through|thru)\s*(?:thu(?:rsday)?|fri(?:day)?)\b`)

// mayHoldSchedule reports whether text has what every match of scheduleRE
// has, a digit or the start of a weekday, so that the regular expression
// runs only on text it may match.
func mayHoldSchedule(text string) bool {
	if strings.ContainsAny(text, "0123456789") {
		return true
	}
	lower := strings.ToLower(text)
	for _, day := range []string{"mon", "tue", "wed", "thu"} {
		if strings.Contains(lower, day) {
			return true
		}
	}
	return false
}

// arrangement removes the work-arrangement phrases of text, noting them in
// out, and returns what is left.
func arrangement(text string, out *ParsedLocation) string {
	if mayHoldSchedule(text) {
		text = scheduleRE.ReplaceAllString(text, " ")
	}
	lower := strings.ToLower(text)
	if strings.Contains(lower, "n/a") {
		text = notApplicableRE.ReplaceAllString(text, " ")
		lower = strings.ToLower(text)
	}
	hint := false
	for _, s := range []string{"remot", "wfh", "home", "tele", "distrib", "anywhere", "worldwide", "virtual", "hybrid", "site", "office", "person"} {
		if strings.Contains(lower, s) {
			hint = true
			break
		}
	}
	if !hint {
		return text
	}
	var remote, hybrid, onsite bool
	text = arrangementRE.ReplaceAllStringFunc(text, func(m string) string {
		m = strings.ToLower(m)
		switch {
		case strings.Contains(m, "hybrid"):
			hybrid = true
		case strings.Contains(m, "home"):
			remote = true
		case strings.Contains(m, "site") || strings.Contains(m, "office") || strings.Contains(m, "person"):
			onsite = true
		default:
			remote = true
		}
		return ","
	})
	switch {
	case hybrid:
		out.Hybrid = true
	case remote:
		out.Remote = true
	case onsite:
		out.Onsite = true
	}
	return text
}
