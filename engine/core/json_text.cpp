#include "core/json_text.h"

#include "core/error.h"

#include <istream>

namespace kiln {
namespace {

struct TooDeep {};

nlohmann::json::parser_callback_t depth_limit() {
    // `depth` counts the containers around the event: 0 for the outermost one's start.
    return [](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
        const bool opens = event == nlohmann::json::parse_event_t::object_start ||
                           event == nlohmann::json::parse_event_t::array_start;
        if (opens && depth >= kMaxJsonDepth) {
            throw TooDeep{};
        }
        return true;
    };
}

template <typename Input> nlohmann::json parse(Input&& input, const std::string& what) {
    try {
        return nlohmann::json::parse(std::forward<Input>(input), depth_limit());
    } catch (const TooDeep&) {
        throw Error(what + " nests deeper than " + std::to_string(kMaxJsonDepth) +
                    " levels; no Kiln file does, so it is damaged or was made to harm");
    } catch (const nlohmann::json::exception& error) {
        throw Error(what + " is not valid JSON: " + error.what());
    }
}

} // namespace

nlohmann::json parse_json(std::string_view text, const std::string& what) {
    return parse(text, what);
}

nlohmann::json parse_json(std::istream& in, const std::string& what) {
    return parse(in, what);
}

nlohmann::json parse_json_or_discarded(std::string_view text) {
    try {
        return parse(text, "");
    } catch (const Error&) {
        return nlohmann::json::value_t::discarded;
    }
}

nlohmann::json setting_in_group(const nlohmann::json& settings, const char* group,
                                const char* key) {
    if (!settings.is_object()) {
        return nullptr;
    }
    const auto found = settings.find(group);
    if (found == settings.end() || !found->is_object()) {
        return nullptr;
    }
    return found->value(key, nlohmann::json());
}

std::string text_setting(const nlohmann::json& settings, const char* key,
                         const std::string& fallback) {
    if (!settings.is_object()) {
        return fallback;
    }
    const auto found = settings.find(key);
    return found != settings.end() && found->is_string() ? found->get<std::string>() : fallback;
}

} // namespace kiln
