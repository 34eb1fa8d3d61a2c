package domain

// ChangePage is one page of the change feed, oldest change first.
type ChangePage struct {
	Nodes    []Change
	PageInfo ChangePageInfo
}

// ChangePageInfo says where a page of the change feed ends.
type ChangePageInfo struct {
	// Limit is the page size applied.
	Limit int
	// HasMore is set when changes follow the page's.
	HasMore bool
	// NextCursor is where the next page starts: after the page's last
	// change, or where the page started when it is empty. A client polls
	// the feed with it.
	NextCursor string
}
