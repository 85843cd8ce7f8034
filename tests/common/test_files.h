#pragma once
// A small file written by a test: the whole of `bytes`, or false.

#include <QByteArray>
#include <QFile>
#include <QString>

inline bool write_test_file(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}
