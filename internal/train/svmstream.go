package train

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// blockStream is the PCG stream of the partition of the rows into blocks,
// and blockStream+1 that of the order the blocks are visited in (the seed
// is p.Seed).
const blockStream = 0x6e62747261696e03

// BlockPasses caps the passes of dual coordinate descent over one block of
// rows, each time the block is loaded, when the rows make more than one
// block (one block is solved as FitSVM solves the matrix). A block solved
// loosely costs little and its α are refined at the next visit; solved to
// its own tolerance it spends passes on a subproblem whose weights the
// other blocks then move (Yu, Hsieh, Chang & Lin 2010 find a few passes a
// good trade).
const BlockPasses = 3

// FitSVMStream fits FitSVM's model on the rows of rc (weighted over vocab,
// label ids into classes) in bounded memory, by dual block minimization
// (Yu, Hsieh, Chang & Lin, KDD 2010, "Large linear classification when
// data cannot fit in memory"): memory holds the weights (vocabulary ×
// classes) and one block of at most buffer rows (DefaultStreamBuffer when
// buffer ≤ 0) with its dual variables, never the corpus. See
// fitDualStream for the method.
func FitSVMStream(rc *RowCache, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options, buffer int) (*model.Model, error) {
	return fitDualStream(model.SVM, rc, classes, vocab, p, opt, buffer)
}

// FitNBLRStream fits FitNBLR's model on the rows of rc as FitSVMStream fits
// the SVM's: one pass over rc counts the documents of each class that hold
// each term, which give the log-count ratios (logCountRatios), and the
// block solver fits the SVM on the binarised rows scaled by them; its
// weights are then interpolated as FitNBLR's.
func FitNBLRStream(rc *RowCache, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options, buffer int) (*model.Model, error) {
	return fitDualStream(model.NBLR, rc, classes, vocab, p, opt, buffer)
}

// fitDualStream fits the SVM or NB-LR (kind) on the rows of rc by dual
// block minimization.
//
// A first pass over rc counts each term's documents, which number the
// terms by falling document frequency as byFrequency does for the
// in-memory fits (and, for NB-LR, gives the log-count ratios). The rows are
// then split once into blocks of buffer rows drawn at random with p.Seed
// (newBlockSolver), written block after block to a scratch file beside the
// row cache (so the disk holds the rows twice). The dual variables α, one
// per row and problem, live in another scratch file, in the same order.
//
// An outer iteration visits the blocks in an order shuffled with p.Seed;
// a visit reads the block's rows and α, runs at most BlockPasses passes of
// FitSVM's dual coordinate descent (descend, with shrinking within the
// block) over them, updating the weights shared by all blocks and the
// block's α, and writes α back. A problem is solved when the projected
// gradient's spread over the first pass of every block of an outer
// iteration (a pass that shrinks nothing, so it sees every α) is at most
// the solver's tolerance (opt.svmEps, FitSVM's), or after p.Epochs outer
// iterations (so the default cap, DefaultSVMIter, bounds the reads of the
// cache, not the passes over the rows, which are up to BlockPasses times
// as many).
//
// Blocks hold at most buffer rows, and fewer when blocks of buffer rows
// would pass membudget.RowBlocks (StreamBlockRows).
//
// When one block holds every row, it holds them in the cache's order and
// its single visit runs descend with FitSVM's pass cap and permutations:
// the model is FitSVM's (FitNBLR's) on the same rows, bit for bit. The
// permutations of a visit are drawn from p.Seed and the visit's number,
// fresh for each group of problems, and each problem stops on its own
// data, so the model does not depend on opt.Workers.
//
// No temperature is fitted (calibration holds out documents): the model
// scores with p.Temperature when it is > 0, else 1.
func fitDualStream(kind model.Kind, rc *RowCache, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options, buffer int) (*model.Model, error) {
	if err := ValidateParams(kind, p, len(classes)); err != nil {
		return nil, err
	}
	if err := model.CheckSize(kind, false, vocab.Len(), len(classes)); err != nil {
		return nil, err
	}
	nf, nc := vocab.Len(), len(classes)
	buffer, err := rc.check(nc, buffer)
	if err != nil {
		return nil, err
	}
	p.Temperature = max(p.Temperature, 0)
	perm, scale, err := streamTerms(kind, rc, nf, nc, p)
	if err != nil {
		return nil, err
	}
	probs := nc
	if nc == 2 {
		probs = 1
	}
	buffer = blockRows(rc, buffer, probs, membudget.RowBlocks())
	bs, err := newBlockSolver(rc, buffer, probs, perm, p)
	if err != nil {
		return nil, err
	}
	defer bs.close()
	base := &svc{X: &vectorize.Matrix{Cols: nf}, buf: &svcBuffers{}, tau: p.Temperature}
	base.cost = newSVC(base.X, nil, nc, p).cost
	base.eps, base.maxIter = opt.svmEps(kind), p.Epochs
	groups, size := groupsOf(probs, opt.workers())
	W, B := base.prepare(nf, nc, groups)
	gs := make([]*svcGroup, groups)
	parallel(groups, groups, func(g int) {
		grp := base.newGroup(g, size, probs, nc, scale)
		G := grp.hi - grp.lo
		grp.w, grp.b = make([]float32, nf*G), make([]float64, G)
		gs[g] = grp
	})
	if err := bs.solve(base, gs, opt); err != nil {
		return nil, err
	}
	beta := 1.0
	if kind == model.NBLR {
		beta = p.Interpolation
	}
	parallel(groups, groups, func(g int) { base.emitGroup(gs[g], W, B, nc, perm, scale, beta) })
	if tau := p.Temperature; tau > 0 && tau != 1 && slices.Contains(base.buf.overflow, true) {
		return nil, fmt.Errorf("temperature %v overflows a weight", tau)
	}
	return model.NewLinear(kind, classes, vocab, p, W, B)
}

// streamTerms reads rc once and returns the numbers byFrequency gives its
// nf terms and, for NB-LR, the log-count ratios of the terms so numbered
// (logCountRatios of the rows; nil for the SVM).
func streamTerms(kind model.Kind, rc *RowCache, nf, nc int, p model.Params) (perm []int32, scale []float64, err error) {
	df := make([]int32, nf)
	var cnt, tot []float64
	if kind == model.NBLR {
		cnt, tot = make([]float64, nf*nc), make([]float64, nc)
	}
	err = rc.Each(func(c int, ind []int32, _ []float32) error {
		w := classWeight(p, c)
		for _, t := range ind {
			if int(t) >= nf {
				return fmt.Errorf("row cache has term id %d, but %d terms", t, nf)
			}
			df[t]++
			if cnt != nil {
				cnt[int(t)*nc+c] += w
			}
		}
		if tot != nil {
			tot[c] += w * float64(len(ind))
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	perm = frequencyOrder(df)
	if cnt == nil {
		return perm, nil, nil
	}
	// The counts in the order of the numbers, as the in-memory fit counts
	// them on the renumbered matrix.
	permuteRows(cnt, perm, nc)
	return perm, countRatios(cnt, tot, rc.Rows(), nf, nc, p), nil
}

// permuteRows moves row t of the rows of width w of a (a[t*w : (t+1)*w])
// to row perm[t], in place: each cycle of perm is followed once, with one
// row held aside (a second V×C array would add a model's size to the
// peak).
func permuteRows(a []float64, perm []int32, w int) {
	done := make([]bool, len(perm))
	held, next := make([]float64, w), make([]float64, w)
	for start := range perm {
		if done[start] {
			continue
		}
		copy(held, a[start*w:start*w+w])
		for t := start; !done[t]; {
			done[t] = true
			u := int(perm[t])
			copy(next, a[u*w:u*w+w])
			copy(a[u*w:u*w+w], held)
			held, next = next, held
			t = u
		}
	}
}

// blockSolver holds the partition of a row cache into blocks, the scratch
// files of their rows and dual variables, and the block being solved.
type blockSolver struct {
	rc     *RowCache
	perm   []int32 // term t of the rows is term perm[t] of the solver
	probs  int
	seed   uint64
	blocks []rowBlock
	rows   *fsutil.Scratch // the rows, block after block (nil: one block)
	alpha  *fsutil.Scratch // α[i*probs + k] of row i of the blocks' order
	X      vectorize.Matrix
	y      []int
	a      []float64 // the block's α, as in the file
	raw    []byte
}

// rowBlock is a block of rows: rows rows of nnz terms in all, encoded in
// size bytes at start of the rows file; its α start at row off of the α
// file.
type rowBlock struct {
	start, size int64
	rows, off   int
	nnz         int
}

// newBlockSolver splits the rows of rc into blocks of buffer rows (see
// fitDualStream) and creates their α file, all zero.
//
// Row i of rc goes to position π(i) of a random permutation π drawn from
// p.Seed (rowPerm, which needs no memory per row), and block b holds the
// rows of positions [b·buffer, (b+1)·buffer), in the order of rc. A
// corpus sorted by label thus still gives blocks of every label in their
// proportions: with blocks gathered from runs of consecutive rows (the
// 64-row chunks of the cache), the blocks of a sorted corpus hold few
// labels each, and the solver's outer iterations multiply (on the 20
// Newsgroups train split, blocks of 1,000 rows took 117 outer iterations
// instead of 7). Two passes over rc write the blocks to a scratch file,
// one after the other: the first sums the bytes of each block, the second
// writes each row at its block's next offset. The offsets are the only
// memory per block (8 bytes a block, as the row cache's per chunk).
func newBlockSolver(rc *RowCache, buffer, probs int, perm []int32, p model.Params) (*blockSolver, error) {
	n := rc.Rows()
	bs := &blockSolver{rc: rc, perm: perm, probs: probs, seed: uint64(p.Seed)}
	f, err := fsutil.NewScratch("", "nbtext-alpha-*")
	if err != nil {
		return nil, fmt.Errorf("dual variables: %w", err)
	}
	bs.alpha = f
	if err := f.Truncate(int64(n) * int64(probs) * 8); err != nil {
		bs.close()
		return nil, fmt.Errorf("dual variables %s: %w", f.Name(), err)
	}
	if buffer >= n {
		bs.blocks = []rowBlock{{rows: n, nnz: int(rc.nnz)}} // the cache itself, in order
	} else if err := bs.split(buffer); err != nil {
		bs.close()
		return nil, err
	}
	// The block arrays are sized for the largest block at once: grown by
	// appending, they would leave twice their size in garbage.
	rows, nnz, size := 0, 0, int64(0)
	for _, b := range bs.blocks {
		rows, nnz, size = max(rows, b.rows), max(nnz, b.nnz), max(size, b.size)
	}
	bs.raw = make([]byte, 0, max(size, int64(rows)*int64(probs)*8)) // a block's bytes, then its α
	bs.X.Indptr = make([]int, 0, rows+1)
	bs.X.Indices = make([]int32, 0, nnz)
	bs.X.Values = make([]float32, 0, nnz)
	bs.y = make([]int, 0, rows)
	return bs, nil
}

// split writes the rows of bs.rc to the rows file, in blocks of buffer
// rows (see newBlockSolver).
func (bs *blockSolver) split(buffer int) error {
	n := bs.rc.Rows()
	nb := ceilDiv(n, buffer)
	pi := newRowPerm(n, bs.seed)
	bs.blocks = make([]rowBlock, nb)
	for b := range bs.blocks {
		bs.blocks[b].off = b * buffer
		bs.blocks[b].rows = min(buffer, n-b*buffer)
	}
	var enc []byte
	i := 0
	err := bs.rc.Each(func(y int, ind []int32, val []float32) error {
		var err error
		if enc, err = appendRow(enc[:0], y, ind, val); err != nil {
			return err
		}
		b := &bs.blocks[pi.at(i)/buffer]
		b.size += int64(len(enc))
		b.nnz += len(ind)
		i++
		return nil
	})
	if err != nil {
		return err
	}
	next := make([]int64, nb)
	for b := 1; b < nb; b++ {
		bs.blocks[b].start = bs.blocks[b-1].start + bs.blocks[b-1].size
		next[b] = bs.blocks[b].start
	}
	f, err := fsutil.NewScratch("", "nbtext-blocks-*")
	if err != nil {
		return fmt.Errorf("row blocks: %w", err)
	}
	bs.rows = f
	i = 0
	return bs.rc.Each(func(y int, ind []int32, val []float32) error {
		enc, _ = appendRow(enc[:0], y, ind, val) // checked in the first pass
		b := pi.at(i) / buffer
		if _, err := f.WriteAt(enc, next[b]); err != nil {
			return fmt.Errorf("row blocks %s: %w", f.Name(), err)
		}
		next[b] += int64(len(enc))
		i++
		return nil
	})
}

func (bs *blockSolver) close() {
	bs.alpha.Close()
	if bs.rows != nil {
		bs.rows.Close()
	}
}

// load reads block b's rows, renumbered, and its α.
func (bs *blockSolver) load(b rowBlock) error {
	bs.X = vectorize.Matrix{Indptr: append(bs.X.Indptr[:0], 0), Indices: bs.X.Indices[:0], Values: bs.X.Values[:0], Cols: len(bs.perm)}
	bs.y = bs.y[:0]
	add := func(y int, ind []int32, val []float32) error {
		for _, t := range ind {
			if int(t) >= len(bs.perm) {
				return fmt.Errorf("row cache has term id %d, but %d terms", t, len(bs.perm))
			}
			bs.X.Indices = append(bs.X.Indices, bs.perm[t])
		}
		bs.X.Values = append(bs.X.Values, val[:len(ind)]...)
		bs.X.Indptr = append(bs.X.Indptr, len(bs.X.Indices))
		bs.y = append(bs.y, y)
		return nil
	}
	if bs.rows == nil {
		if err := bs.rc.Each(add); err != nil {
			return err
		}
	} else {
		bs.raw = slices.Grow(bs.raw[:0], int(b.size))[:b.size]
		if _, err := bs.rows.ReadAt(bs.raw, b.start); err != nil {
			return fmt.Errorf("row blocks %s: %w", bs.rows.Name(), err)
		}
		if err := bs.rc.decodeRows(bs.raw, b.off, b.rows, add); err != nil {
			return err
		}
	}
	m := b.rows * bs.probs
	bs.raw = slices.Grow(bs.raw[:0], 8*m)[:8*m]
	if _, err := bs.alpha.ReadAt(bs.raw, int64(b.off)*int64(bs.probs)*8); err != nil {
		return fmt.Errorf("dual variables %s: %w", bs.alpha.Name(), err)
	}
	bs.a = slices.Grow(bs.a[:0], m)[:m]
	for i := range bs.a {
		bs.a[i] = math.Float64frombits(binary.LittleEndian.Uint64(bs.raw[8*i:]))
	}
	return nil
}

// store writes the block's α back to the file.
func (bs *blockSolver) store(b rowBlock) error {
	for i, v := range bs.a {
		binary.LittleEndian.PutUint64(bs.raw[8*i:], math.Float64bits(v))
	}
	if _, err := bs.alpha.WriteAt(bs.raw[:8*len(bs.a)], int64(b.off)*int64(bs.probs)*8); err != nil {
		return fmt.Errorf("dual variables %s: %w", bs.alpha.Name(), err)
	}
	return nil
}

// solve runs the outer iterations of fitDualStream over the blocks,
// updating the groups' weights gs; base holds the problems' costs,
// tolerance and pass cap.
func (bs *blockSolver) solve(base *svc, gs []*svcGroup, opt Options) error {
	probs := bs.probs
	done := make([]bool, probs)
	pgMax, pgMin := make([]float64, probs), make([]float64, probs)
	fps := make([]firstPass, len(gs))
	// Each group's α and descend's arrays, reused from block to block.
	alphas := make([][]float64, len(gs))
	bufs := make([]descentBuffers, len(gs))
	for g, grp := range gs {
		G := grp.hi - grp.lo
		fps[g] = firstPass{skip: done[grp.lo:grp.hi], pgMax: make([]float64, G), pgMin: make([]float64, G)}
	}
	order := make([]int, len(bs.blocks))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(bs.seed, blockStream+1))
	inner := base.maxIter
	if len(bs.blocks) > 1 {
		inner = min(inner, BlockPasses)
	}
	visit := uint64(0)
	for iter := 1; ; iter++ {
		for k := range pgMax {
			pgMax[k], pgMin[k] = math.Inf(-1), math.Inf(1)
		}
		if len(order) > 1 {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		for _, b := range order {
			blk := bs.blocks[b]
			if err := bs.load(blk); err != nil {
				return err
			}
			parallel(len(gs), len(gs), func(g int) {
				grp := gs[g]
				G := grp.hi - grp.lo
				pr := &svc{X: &bs.X, y: bs.y, cost: base.cost, eps: base.eps, maxIter: inner}
				alpha := slices.Grow(alphas[g][:0], blk.rows*G)[:blk.rows*G]
				alphas[g] = alpha
				for i := range blk.rows {
					copy(alpha[i*G:i*G+G], bs.a[i*probs+grp.lo:i*probs+grp.hi])
				}
				pr.descend(grp.pos, grp.s32, grp.w, grp.b, alpha, rand.New(rand.NewPCG(bs.seed, svmStream+visit)), &fps[g], &bufs[g])
				for i := range blk.rows {
					copy(bs.a[i*probs+grp.lo:i*probs+grp.hi], alpha[i*G:i*G+G])
				}
			})
			visit++
			for g, fp := range fps {
				lo := gs[g].lo
				for k := range fp.pgMax {
					pgMax[lo+k] = max(pgMax[lo+k], fp.pgMax[k])
					pgMin[lo+k] = min(pgMin[lo+k], fp.pgMin[k])
				}
			}
			if len(bs.blocks) > 1 {
				if err := bs.store(blk); err != nil {
					return err
				}
			}
		}
		left := 0
		for k := range done {
			// One block: descend's own criterion solved it.
			if len(bs.blocks) == 1 || pgMax[k]-pgMin[k] <= base.eps || iter >= base.maxIter {
				done[k] = true
			}
			if !done[k] {
				left++
			}
		}
		if opt.Progress != nil {
			opt.Progress(iter, base.maxIter)
		}
		if left == 0 {
			if opt.Progress != nil && iter < base.maxIter {
				opt.Progress(base.maxIter, base.maxIter)
			}
			return nil
		}
	}
}

// rowPerm is a pseudo-random permutation of [0, n) drawn from a seed that
// holds no table: a four-round Feistel network over the smallest domain
// of 2h bits that holds n, walked again from a value ≥ n until it falls
// below n (cycle walking, which keeps it a bijection of [0, n); the domain
// is less than 4n, so a walk takes under four steps on average).
type rowPerm struct {
	n    uint64
	half uint
	mask uint64
	keys [4]uint64
}

func newRowPerm(n int, seed uint64) rowPerm {
	p := rowPerm{n: uint64(n), half: 1}
	for uint64(1)<<(2*p.half) < p.n {
		p.half++
	}
	p.mask = 1<<p.half - 1
	rng := rand.New(rand.NewPCG(seed, blockStream))
	for k := range p.keys {
		p.keys[k] = rng.Uint64()
	}
	return p
}

// at returns π(i).
func (p rowPerm) at(i int) int {
	x := uint64(i)
	for {
		l, r := x>>p.half, x&p.mask
		for _, k := range p.keys {
			l, r = r, l^(mix64(r^k)&p.mask)
		}
		if x = l<<p.half | r; x < p.n {
			return int(x)
		}
	}
}

// mix64 is the finaliser of SplitMix64, a bijective hash of 64 bits.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
