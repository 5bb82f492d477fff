// The SFTP version 3 wire format (draft-ietf-secsh-filexfer-02, as OpenSSH speaks it): packets
// built and parsed here, sent over a plain SSH channel by SftpClient. Pure: no I/O.
// Thread-safety: plain values; no shared state.
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace tunedeck::ssh::sftp {

enum PacketType : quint8 {
    kInit = 1,
    kVersion = 2,
    kOpen = 3,
    kClose = 4,
    kRead = 5,
    kWrite = 6,
    kLstat = 7,
    kFstat = 8,
    kSetstat = 9,
    kFsetstat = 10,
    kOpendir = 11,
    kReaddir = 12,
    kRemove = 13,
    kMkdir = 14,
    kRmdir = 15,
    kRealpath = 16,
    kStat = 17,
    kRename = 18,
    kStatus = 101,
    kHandle = 102,
    kData = 103,
    kName = 104,
    kAttrs = 105,
    kExtended = 200,
    kExtendedReply = 201,
};

enum StatusCode : quint32 {
    kOk = 0,
    kEof = 1,
    kNoSuchFile = 2,
    kPermissionDenied = 3,
    kFailure = 4,
    kBadMessage = 5,
    kNoConnection = 6,
    kConnectionLost = 7,
    kOpUnsupported = 8,
};

enum OpenFlags : quint32 {
    kOpenRead = 0x01,
    kOpenWrite = 0x02,
    kOpenAppend = 0x04,
    kOpenCreate = 0x08,
    kOpenTruncate = 0x10,
    kOpenExclusive = 0x20,
};

struct Attributes {
    enum Flags : quint32 {
        kSize = 0x1,
        kUidGid = 0x2,
        kPermissions = 0x4,
        kTimes = 0x8,
        kExtended = 0x80000000u,
    };
    quint32 flags = 0;
    quint64 size = 0;
    quint32 uid = 0;
    quint32 gid = 0;
    quint32 permissions = 0;  // with the file type bits (S_IFDIR...) when the server sends them
    quint32 atime = 0;
    quint32 mtime = 0;

    bool isDirectory() const {
        return (flags & kPermissions) && (permissions & 0170000) == 0040000;
    }
    bool isRegularFile() const {
        return (flags & kPermissions) && (permissions & 0170000) == 0100000;
    }
};

// Builds one packet: its length is filled in by finish().
class PacketWriter {
  public:
    // Every request but INIT carries a request id after its type.
    PacketWriter(PacketType type, quint32 requestId, qsizetype reserve = 64);
    static PacketWriter init(quint32 version);

    PacketWriter& u8(quint8 value);
    PacketWriter& u32(quint32 value);
    PacketWriter& u64(quint64 value);
    PacketWriter& string(QByteArrayView value);
    PacketWriter& attributes(const Attributes& attributes);
    // Room for `length` bytes of string data (its length prefix is written): the caller fills it
    // in place, e.g. straight from a file, and may shrink it with truncateRaw().
    char* rawString(qsizetype length);
    void truncateRaw(qsizetype unused);
    QByteArray finish();

  private:
    PacketWriter() = default;
    QByteArray buffer_;
    qsizetype rawLengthAt_ = -1;
};

// Reads the fields of one packet (without its length); any overrun turns ok() false.
class PacketReader {
  public:
    explicit PacketReader(QByteArrayView data) : data_(data) {}

    quint8 u8();
    quint32 u32();
    quint64 u64();
    QByteArrayView string();
    Attributes attributes();
    bool ok() const { return ok_; }
    bool atEnd() const { return pos_ >= data_.size(); }

  private:
    bool need(qsizetype bytes);
    QByteArrayView data_;
    qsizetype pos_ = 0;
    bool ok_ = true;
};

// Takes whole packets off the front of the channel's byte stream.
class PacketFramer {
  public:
    // Longest packet accepted; longer ones mean a broken stream.
    static constexpr quint32 kMaxPacket = 4 * 1024 * 1024;

    // Next complete packet in `buffer` from `pos` (the view stays valid until `buffer` changes),
    // false when more bytes are needed or the stream is broken.
    bool next(const QByteArray& buffer, qsizetype& pos, QByteArrayView* packet);
    bool broken() const { return broken_; }

  private:
    bool broken_ = false;
};

// "no such file", "permission denied", ... for a status code.
QString statusText(quint32 code);

}  // namespace tunedeck::ssh::sftp
