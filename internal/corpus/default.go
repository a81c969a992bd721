package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// TarballEnv names the environment variable that points at a local copy of
// the 20 Newsgroups bydate archive.
const TarballEnv = "NBTEXT_20NEWS_TARBALL"

// DefaultPath returns where nbtext looks for the 20 Newsgroups bydate
// archive when no corpus is given: $NBTEXT_20NEWS_TARBALL when set, else
// 20news-bydate.tar.gz in the cache folder
// ${NBTEXT_DATA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/nbtext}, the folder
// scripts/fetch-20news.sh fills.
func DefaultPath() string {
	if p := os.Getenv(TarballEnv); p != "" {
		return p
	}
	return filepath.Join(DataDir(), "20news-bydate.tar.gz")
}

// DataDir returns nbtext's cache folder for downloaded corpora:
// $NBTEXT_DATA_DIR, else $XDG_CACHE_HOME/nbtext, else $HOME/.cache/nbtext.
func DataDir() string {
	if d := os.Getenv("NBTEXT_DATA_DIR"); d != "" {
		return d
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		cache = filepath.Join(os.Getenv("HOME"), ".cache")
	}
	return filepath.Join(cache, "nbtext")
}

// FindDefault returns DefaultPath when a file is there, else an error that
// tells the user how to get the corpus.
func FindDefault() (string, error) {
	p := DefaultPath()
	_, err := os.Stat(p)
	switch {
	case err == nil:
		return p, nil
	case os.Getenv(TarballEnv) != "":
		return "", fmt.Errorf("%s=%s: %w", TarballEnv, p, unwrapPath(err))
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("20news: no 20 Newsgroups archive at %s: run scripts/fetch-20news.sh (or set %s to a copy of 20news-bydate.tar.gz)", p, TarballEnv)
	default:
		return "", pathError(p, err)
	}
}

// unwrapPath drops the operation and path of an *fs.PathError.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
