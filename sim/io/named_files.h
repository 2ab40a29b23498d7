#pragma once
// Whether loading a document may touch the files it names.

namespace migsim {

// What the loaders do with the files a document names: the CSV traces, arrival lists,
// mig-parted YAML files and plugin libraries of a scenario, the scenario of a sweep or a plan.
enum class NamedFiles {
  // Read (or load) them, a relative path against the directory of the document's file.
  kRead,
  // Touch nothing outside the text: each field naming a file is an InvalidArgument at its
  // pointer, "named files are not read here". For hostile text: the fuzz targets (fuzz/).
  kRefused,
};

}  // namespace migsim
