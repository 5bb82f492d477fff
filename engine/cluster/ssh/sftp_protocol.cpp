#include "cluster/ssh/sftp_protocol.h"

#include <QtEndian>

namespace tunedeck::ssh::sftp {

PacketWriter::PacketWriter(PacketType type, quint32 requestId, qsizetype reserve) {
    buffer_.reserve(reserve + 9);
    u32(0);
    u8(type);
    u32(requestId);
}

PacketWriter PacketWriter::init(quint32 version) {
    PacketWriter writer;
    writer.u32(0);
    writer.u8(kInit);
    writer.u32(version);
    return writer;
}

PacketWriter& PacketWriter::u8(quint8 value) {
    buffer_.append(static_cast<char>(value));
    return *this;
}

PacketWriter& PacketWriter::u32(quint32 value) {
    char bytes[4];
    qToBigEndian(value, bytes);
    buffer_.append(bytes, 4);
    return *this;
}

PacketWriter& PacketWriter::u64(quint64 value) {
    char bytes[8];
    qToBigEndian(value, bytes);
    buffer_.append(bytes, 8);
    return *this;
}

PacketWriter& PacketWriter::string(QByteArrayView value) {
    u32(static_cast<quint32>(value.size()));
    buffer_.append(value.data(), value.size());
    return *this;
}

PacketWriter& PacketWriter::attributes(const Attributes& a) {
    // Extended attributes are never sent.
    const quint32 flags = a.flags & ~Attributes::kExtended;
    u32(flags);
    if (flags & Attributes::kSize) {
        u64(a.size);
    }
    if (flags & Attributes::kUidGid) {
        u32(a.uid);
        u32(a.gid);
    }
    if (flags & Attributes::kPermissions) {
        u32(a.permissions);
    }
    if (flags & Attributes::kTimes) {
        u32(a.atime);
        u32(a.mtime);
    }
    return *this;
}

char* PacketWriter::rawString(qsizetype length) {
    rawLengthAt_ = buffer_.size();
    u32(static_cast<quint32>(length));
    const qsizetype start = buffer_.size();
    buffer_.resize(start + length);
    return buffer_.data() + start;
}

void PacketWriter::truncateRaw(qsizetype unused) {
    if (rawLengthAt_ < 0 || unused <= 0) {
        return;
    }
    buffer_.chop(unused);
    const quint32 length = static_cast<quint32>(buffer_.size() - rawLengthAt_ - 4);
    qToBigEndian(length, buffer_.data() + rawLengthAt_);
}

QByteArray PacketWriter::finish() {
    qToBigEndian(static_cast<quint32>(buffer_.size() - 4), buffer_.data());
    return std::move(buffer_);
}

bool PacketReader::need(qsizetype bytes) {
    if (!ok_ || bytes < 0 || data_.size() - pos_ < bytes) {
        ok_ = false;
        return false;
    }
    return true;
}

quint8 PacketReader::u8() {
    if (!need(1)) {
        return 0;
    }
    return static_cast<quint8>(data_[pos_++]);
}

quint32 PacketReader::u32() {
    if (!need(4)) {
        return 0;
    }
    const quint32 value = qFromBigEndian<quint32>(data_.data() + pos_);
    pos_ += 4;
    return value;
}

quint64 PacketReader::u64() {
    if (!need(8)) {
        return 0;
    }
    const quint64 value = qFromBigEndian<quint64>(data_.data() + pos_);
    pos_ += 8;
    return value;
}

QByteArrayView PacketReader::string() {
    const quint32 length = u32();
    if (!need(static_cast<qsizetype>(length))) {
        return {};
    }
    const QByteArrayView value = data_.sliced(pos_, length);
    pos_ += length;
    return value;
}

Attributes PacketReader::attributes() {
    Attributes a;
    a.flags = u32();
    if (a.flags & Attributes::kSize) {
        a.size = u64();
    }
    if (a.flags & Attributes::kUidGid) {
        a.uid = u32();
        a.gid = u32();
    }
    if (a.flags & Attributes::kPermissions) {
        a.permissions = u32();
    }
    if (a.flags & Attributes::kTimes) {
        a.atime = u32();
        a.mtime = u32();
    }
    if (a.flags & Attributes::kExtended) {
        const quint32 count = u32();
        for (quint32 i = 0; i < count && ok_; ++i) {
            string();
            string();
        }
    }
    return a;
}

bool PacketFramer::next(const QByteArray& buffer, qsizetype& pos, QByteArrayView* packet) {
    if (broken_ || buffer.size() - pos < 4) {
        return false;
    }
    const quint32 length = qFromBigEndian<quint32>(buffer.constData() + pos);
    if (length == 0 || length > kMaxPacket) {
        broken_ = true;
        return false;
    }
    if (buffer.size() - pos - 4 < static_cast<qsizetype>(length)) {
        return false;
    }
    *packet = QByteArrayView(buffer.constData() + pos + 4, length);
    pos += 4 + length;
    return true;
}

QString statusText(quint32 code) {
    switch (code) {
        case kOk:
            return QStringLiteral("success");
        case kEof:
            return QStringLiteral("end of file");
        case kNoSuchFile:
            return QStringLiteral("no such file or folder");
        case kPermissionDenied:
            return QStringLiteral("permission denied");
        case kFailure:
            return QStringLiteral("failure");
        case kBadMessage:
            return QStringLiteral("bad message");
        case kNoConnection:
            return QStringLiteral("no connection");
        case kConnectionLost:
            return QStringLiteral("connection lost");
        case kOpUnsupported:
            return QStringLiteral("operation not supported by the server");
        default:
            return QStringLiteral("error %1").arg(code);
    }
}

}  // namespace tunedeck::ssh::sftp
