#include "timeline/event_search.h"

#include "common/did_you_mean.h"

#include <QCoreApplication>

#include <algorithm>
#include <set>
#include <string>

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

QString why_nothing_matches(const Timeline& timeline, const EventQuery& query) {
    // What the run has: the words of its operations' names, its layers and its micro-batches.
    std::set<std::string> words;
    std::string operations;  // every name, lower case, one per line
    int highest_layer = -1;
    int highest_micro_batch = -1;
    std::set<std::string> seen;
    for (std::size_t device = 0; device < timeline.devices().size(); ++device) {
        for (const auto& stream : stream_names) {
            for (const EventId id : timeline.lane(device, stream.value)) {
                const TimelineEvent event = timeline.event(id);
                highest_layer = std::max(highest_layer, static_cast<int>(event.layer));
                highest_micro_batch = std::max(highest_micro_batch, static_cast<int>(event.micro_batch));
                if (!seen.insert(std::string(event.operation)).second) continue;
                const QString name = QString::fromUtf8(event.operation.data(), static_cast<qsizetype>(event.operation.size()))
                                         .toLower();
                operations += name.toStdString() + '\n';
                for (const QString& word : name.split(QLatin1Char(' '), Qt::SkipEmptyParts)) words.insert(word.toStdString());
            }
        }
    }
    for (const QString& word : query.words) {
        if (operations.find(word.toStdString()) != std::string::npos) continue;
        const std::vector<std::string_view> known(words.begin(), words.end());
        return QCoreApplication::translate("EventSearch", "no operation's name holds '%1'%2")
            .arg(word, QString::fromStdString(did_you_mean_suffix(word.toStdString(), known)));
    }
    if (query.layer && (*query.layer < 0 || *query.layer > highest_layer)) {
        return highest_layer < 0
                   ? QCoreApplication::translate("EventSearch", "no event of this run belongs to a layer")
                   : QCoreApplication::translate("EventSearch", "no layer %1: the layers are 0 to %2")
                         .arg(*query.layer)
                         .arg(highest_layer);
    }
    if (query.micro_batch && (*query.micro_batch < 0 || *query.micro_batch > highest_micro_batch)) {
        return highest_micro_batch < 0
                   ? QCoreApplication::translate("EventSearch", "no event of this run belongs to a micro-batch")
                   : QCoreApplication::translate("EventSearch", "no micro-batch %1: the micro-batches are 0 to %2")
                         .arg(*query.micro_batch)
                         .arg(highest_micro_batch);
    }
    return QCoreApplication::translate("EventSearch", "each part matches some events, but no event has them all");
}

}  // namespace parasight::gui
