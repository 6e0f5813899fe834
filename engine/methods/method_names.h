#pragma once

#include <string>
#include <vector>

namespace kiln::methods {

// The self-supervised methods Kiln has, in the order `kiln list-methods` prints them: the one
// list that the configuration schema, the CLI, Studio and make_method read.
std::vector<std::string> method_names();

} // namespace kiln::methods
