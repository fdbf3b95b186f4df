//go:build !amd64 || purego

package bfs

// pullAsm reports that there is no assembly pull on this platform.
func pullAsm(b *batcher, lo, hi int, list, cnts []int32) (count, full int, ok bool) {
	return 0, 0, false
}

// words is W, the uint64 words per vertex of a batch.
func words() int { return 4 }

// firstAsm reports that there is no assembly level 1 on this platform.
func firstAsm(b *batcher, lo, hi int, list, cnts []int32) (count, full int, ok bool) {
	return 0, 0, false
}
