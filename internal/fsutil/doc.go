// Package fsutil owns writing files so that readers never see half of one:
// every model, vocabulary, report, CSV and plot that nbtext writes goes
// through WriteFile, which writes a temporary file in the destination's
// folder, syncs it, renames it over the destination and syncs the folder
// (restic's pattern). An interrupted or failed write leaves the old file, if
// any, untouched and no temporary file behind.
package fsutil
