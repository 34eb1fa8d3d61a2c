package graph

import "github.com/jobsd-dev/jobsd/graph/model"

// pageInfo describes a page of n items at offset among total.
func pageInfo(total, limit, offset, n int) model.PageInfo {
	return model.PageInfo{Total: total, Limit: limit, Offset: offset, HasMore: offset+n < total}
}
