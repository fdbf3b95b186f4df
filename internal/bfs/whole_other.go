//go:build !amd64 || purego

package bfs

// wholeFast is false: WholeHist leaves these machines to BitHist.
const wholeFast = false

// wholeLevel is wholeLevelGo here.
func wholeLevel(vis, cur, next []uint64, off []int, heads []int32, w, block, chunk int) (pairs int64) {
	return wholeLevelGo(vis, cur, next, off, heads, w, block, chunk)
}
