#include "timeline/event_search.h"

#include <algorithm>

namespace parasight::gui {

std::optional<EventQuery> parse_event_query(const QString& text) {
    EventQuery query;
    const QStringList tokens = text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        const QString& token = tokens[i];
        const bool names_a_number = i + 1 < tokens.size();
        bool is_number = false;
        const int number = names_a_number ? tokens[i + 1].toInt(&is_number) : 0;
        if (is_number && token == QStringLiteral("layer")) {
            query.layer = number;
            ++i;
        } else if (is_number && (token == QStringLiteral("mb") || token == QStringLiteral("micro-batch"))) {
            query.micro_batch = number;
            ++i;
        } else {
            query.words << token;
        }
    }
    if (query.words.isEmpty() && !query.layer && !query.micro_batch) return std::nullopt;
    return query;
}

std::vector<EventId> find_events(const Timeline& timeline, const EventQuery& query) {
    struct Found {
        double start_s;
        std::size_t device;
        EventId id;
    };
    std::vector<Found> found;
    for (std::size_t device = 0; device < timeline.devices().size(); ++device) {
        for (const auto& stream : stream_names) {
            for (const EventId id : timeline.lane(device, stream.value)) {
                const TimelineEvent event = timeline.event(id);
                if (query.layer && event.layer != *query.layer) continue;
                if (query.micro_batch && event.micro_batch != *query.micro_batch) continue;
                const QString operation =
                    QString::fromUtf8(event.operation.data(), static_cast<qsizetype>(event.operation.size())).toLower();
                const bool all_words = std::all_of(query.words.begin(), query.words.end(),
                                                   [&](const QString& word) { return operation.contains(word); });
                if (all_words) found.push_back(Found{event.start_s, device, id});
            }
        }
    }
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
        return std::tie(a.start_s, a.device, a.id) < std::tie(b.start_s, b.device, b.id);
    });
    std::vector<EventId> ids;
    ids.reserve(found.size());
    for (const Found& f : found) ids.push_back(f.id);
    return ids;
}

}  // namespace parasight::gui
