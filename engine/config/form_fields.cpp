#include "config/form_fields.h"

#include "config/command_settings.h"

namespace kiln::config {
namespace {

void collect(const std::vector<KeySpec>& keys, const std::string& prefix,
             std::vector<FormField>& fields) {
    for (const KeySpec& key : keys) {
        if (key.form.section != FormSection::Hidden) {
            fields.push_back({prefix + key.name, key});
        }
        collect(key.children, prefix + key.name + ".", fields);
    }
}

nlohmann::json::json_pointer pointer_of(const std::string& path) {
    std::string pointer = "/" + path;
    for (char& c : pointer) {
        c = c == '.' ? '/' : c;
    }
    return nlohmann::json::json_pointer(pointer);
}

} // namespace

std::vector<FormField> form_fields(TaskKind task) {
    std::vector<FormField> fields;
    collect(train_schema(task).keys, "", fields);
    return fields;
}

std::string field_for_problem(const std::vector<FormField>& fields, const std::string& path) {
    std::string best;
    for (const FormField& field : fields) {
        const bool prefix = path.compare(0, field.path.size(), field.path) == 0 &&
                            (path.size() == field.path.size() || path[field.path.size()] == '.' ||
                             path[field.path.size()] == '[');
        if (prefix && field.path.size() > best.size()) {
            best = field.path;
        }
    }
    return best;
}

nlohmann::json with_form_defaults(TaskKind task, nlohmann::json settings) {
    if (!settings.is_object()) {
        settings = nlohmann::json::object();
    }
    for (const FormField& field : form_fields(task)) {
        const auto pointer = pointer_of(field.path);
        if (!field.key.default_value.is_null() && !settings.contains(pointer)) {
            settings[pointer] = field.key.default_value;
        }
    }
    return settings;
}

} // namespace kiln::config
