#pragma once

#include "config/config_schema.h"
#include "config/task_names.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

// What Studio's run form shows, from the training commands' settings and without widgets: its
// fields, their labels, sections and defaults per task, and which field shows a problem.
namespace kiln::config {

struct FormField {
    std::string path; // dotted: "epochs", "optim_args.lr"
    KeySpec key;      // its type, default, checks, help and form place
};

// The fields of `task`'s settings that have a place in the form, in the settings' order.
std::vector<FormField> form_fields(TaskKind task);

// The field that shows a problem the engine reported at `path`: the field of the longest
// dotted prefix of it ("optim_args.lr" for "optim_args.lr", "data" for "data.train.images");
// "" when no field holds it.
std::string field_for_problem(const std::vector<FormField>& fields, const std::string& path);

// `settings` with every form field of `task` that it does not set given the task's default.
nlohmann::json with_form_defaults(TaskKind task, nlohmann::json settings);

} // namespace kiln::config
