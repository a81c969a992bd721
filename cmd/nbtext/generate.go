package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// newGenerateCmd returns the hidden 'nbtext generate' (as restic's): it
// writes documentation generated from the commands themselves, so that
// 'make man' needs no second description of the flags that could drift.
func newGenerateCmd() *cobra.Command {
	var manDir string
	cmd := &cobra.Command{
		Use:    "generate --man DIR",
		Short:  "Write the man pages of every command",
		Hidden: true,
		Long:   helpText("generate"),
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if manDir == "" {
				return usageErrorf("--man DIR is required")
			}
			if err := os.MkdirAll(manDir, 0o755); err != nil {
				return err
			}
			header := &doc.GenManHeader{Section: "1", Source: "nbtext " + buildVersion(), Manual: "nbtext manual"}
			useKindDefaults(cmd.Root())
			opts := doc.GenManTreeOptions{Header: header, Path: manDir, CommandSeparator: "-"}
			if err := doc.GenManTreeFromOpts(cmd.Root(), opts); err != nil {
				return fmt.Errorf("man pages: %w", err)
			}
			note(cmd.ErrOrStderr(), false, "nbtext: wrote the man pages to %s", manDir)
			return nil
		},
	}
	cmd.Flags().StringVar(&manDir, "man", "", "folder to write the man pages to")
	return cmd
}
