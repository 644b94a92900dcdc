// `varsim study merge PART.csv... --csv ALL.csv`: joins the CSVs of `varsim study ... --shard I/N` runs into the
// unsharded run's CSV, byte for byte (same header, rows sorted by method, h descending, run).
#pragma once
#include <string>
#include <vector>

namespace varsim::study {

// args[0] == "study", args[1] == "merge". Throws BadInput naming the file and line of a malformed or repeated
// row or a header that differs. Returns the exit code (0).
int studyMergeCommand(const std::vector<std::string>& args);

}  // namespace varsim::study
