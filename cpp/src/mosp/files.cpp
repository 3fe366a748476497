// The original's output layout (MOSP-OpenMP's mosp program): per objective the updated tree,
// then the combined graph's tree and the path costs. Formats: docs/mosp.md.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "dyng/core/error.hpp"
#include "dyng/io/io.hpp"
#include "dyng/mosp/mosp.hpp"

namespace dyng::mosp {

void write_files(std::filesystem::path const& directory, result const& r, std::string_view suffix)
{
  namespace fs = std::filesystem;
  DYNG_EXPECTS(r.graph_id() != 0, "mosp::write_files: the result is empty (moved from); compute a new one");
  // The suffix goes into file names ("distances" + suffix + ".txt"): a NUL would cut the name
  // short, a '/' put the file elsewhere.
  DYNG_EXPECTS(suffix.find_first_of(std::string_view("/\0", 2)) == std::string_view::npos,
               "mosp::write_files: the suffix holds a '/' or a NUL character; give one that can end a file name, "
               "such as \"Updated\"");
  // Each file is written under a temporary name beside its own and renamed into place once all
  // are written, so a failure while writing (a full disk, a file where a directory goes) leaves
  // the directory as it was, not a mix of new files and old ones; directories this call made are
  // removed again.
  std::vector<std::pair<fs::path, fs::path>> staged;  // (temporary, final)
  std::vector<fs::path> made;
  auto const stage = [&](fs::path const& file) { return staged.emplace_back(fs::path(file) += ".partial", file).first; };
  auto const dir = [&](fs::path const& d) {
    std::error_code ec;
    if (!fs::is_directory(d, ec)) {
      io::make_directories(d);
      made.push_back(d);
    }
    return d;
  };
  try {
    fs::path const root = dir(directory.empty() ? fs::path(".") : directory);  // "": here
    std::string const s(suffix);
    for (int i = 0; i < r.num_objectives(); ++i) {
      auto const d = dir(root / ("obj" + std::to_string(r.objectives()[static_cast<std::size_t>(i)])));
      io::write_distances(stage(d / ("distances" + s + ".txt")), r.tree(i).distance_data());
      io::write_parents(stage(d / ("SSSPTree" + s + ".txt")), r.tree(i).parents());
    }
    auto const c = dir(root / "combinedGraph");
    io::write_distances(stage(c / "distancesCsr.txt"), r.combined_tree().distance_data());
    io::write_parents(stage(c / "SSSPTreeCsr.txt"), r.combined_tree().parents());
    std::visit([&](auto const& costs) {
      io::write_path_costs(stage(c / "mospCosts.txt"), std::span(costs.data(), costs.size()), r.num_objectives());
    }, r.cost_data());
    // Each temporary is beside its target (same directory, permissions and file system), so a
    // rename can still fail where a directory holds a target's name: checked for all before the
    // first rename, so that the renames do not stop half-way.
    for (auto const& [tmp, file] : staged) {
      std::error_code ec;
      if (fs::is_directory(file, ec))
        throw io_error("cannot write '" + file.string() +
                           "': a directory has its name; remove the directory, or give another output directory",
                       std::make_error_code(std::errc::is_a_directory));
    }
    for (auto const& [tmp, file] : staged) {
      std::error_code ec;
      fs::rename(tmp, file, ec);
      if (ec)
        throw io_error("cannot write '" + file.string() + "': " + ec.message() +
                           "; remove what is in the way, or give another directory",
                       ec);
    }
  } catch (...) {
    std::error_code ec;
    for (auto const& [tmp, file] : staged) fs::remove(tmp, ec);
    for (auto d = made.rbegin(); d != made.rend(); ++d) fs::remove(*d, ec);  // only if empty
    throw;
  }
}

}  // namespace dyng::mosp
