package main

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// recipeChildEnv makes this test binary run as nbtext (TestRecipeChild),
// for the recipes' shell scripts to call.
const recipeChildEnv = "RECIPES_NBTEXT_CHILD"

// TestRecipeChild is nbtext itself, with the arguments after "--", when
// recipeChildEnv is set: the child process of TestRecipes.
func TestRecipeChild(t *testing.T) {
	if os.Getenv(recipeChildEnv) != "1" {
		t.Skip(recipeChildEnv + " is not set: this is the child process of TestRecipes")
	}
	os.Exit(run(context.Background(), flag.Args(), streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}

// TestRecipes runs scripts/recipes-test.sh: the recipes of
// docs/recipes.md that run on one machine (xargs, GNU parallel when
// installed, a Slurm array's task script, a Kubernetes Indexed Job's
// command, Spark's rdd.pipe and a Hadoop Streaming mapper as plain
// processes), each checked to give the bytes of one 'nbtext count' (or,
// over stdin shares, the same model). nbtext is this test binary.
func TestRecipes(t *testing.T) {
	for _, tool := range []string{"bash", "awk", "split", "xargs", "cmp", "mktemp"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the recipes need %s, which is not on PATH", tool)
		}
	}
	isolate(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	wrapper := filepath.Join(bin, "nbtext")
	script := "#!/bin/sh\n" + recipeChildEnv + "=1 exec '" + strings.ReplaceAll(self, "'", `'\''`) + "' -test.run='^TestRecipeChild$' -- \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join("..", "..", "scripts", "recipes-test.sh"))
	cmd.Env = append(os.Environ(), "NBTEXT="+wrapper, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("scripts/recipes-test.sh: %v", err)
	}
	if !strings.Contains(string(out), "recipes-test: all passed") {
		t.Error("scripts/recipes-test.sh did not finish")
	}
}
