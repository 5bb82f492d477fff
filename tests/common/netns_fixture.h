// A separate "host" on this machine for a test: a network namespace with a veth pair to the
// test's own namespace, made with iproute2 (`ip netns add`, `ip link add ... type veth`).
//
// The namespace side gets 10.213.N.2/30 and the test's side 10.213.N.1/30, N picked per fixture
// so that several namespaces (and several test processes) do not collide. A server started in
// the namespace (SshdFixture::useNamespace) listens on address() and is reached over the veth
// pair, like a machine on the network: setLinkUp(false) pulls the cable (packets are dropped,
// TCP connections hang, nothing is refused), setLinkUp(true) plugs it back in.
//
// Making namespaces needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN); containers often forbid it.
// Call `NetworkNamespace::available(&why)` first and fall back to loopback ports when it says no.
// The destructor kills what still runs in the namespace and deletes it (and with it the pair).
// Thread-safety: none; use it from the test's thread.
#pragma once

#include <QString>

class NetworkNamespace {
  public:
    NetworkNamespace() = default;
    ~NetworkNamespace();
    NetworkNamespace(const NetworkNamespace&) = delete;
    NetworkNamespace& operator=(const NetworkNamespace&) = delete;

    // Whether this process may make namespaces; `why` says why not (once, tried for real).
    static bool available(QString* why);

    // Makes the namespace and the pair and brings both ends (and the namespace's loopback) up.
    bool create(QString* error);
    // Link state of the namespace's end of the pair: false is a pulled cable.
    bool setLinkUp(bool up, QString* error);
    // Lets the namespace reach other namespaces (a gang's ranks on two nodes): its default route
    // goes to the test's side of the pair, and this machine forwards between the pairs (it sets
    // net.ipv4.ip_forward to 1, as a router between the "hosts" would be).
    bool routeToOtherNamespaces(QString* error);

    QString name() const { return name_; }
    // The namespace's address, as the test reaches it.
    QString address() const { return address_; }
    // The command prefix that runs a program inside the namespace.
    QStringList execPrefix() const;

  private:
    QString name_;
    QString address_;
    QString outerAddress_;
    QString innerLink_;
    bool routed_ = false;  // routeToOtherNamespaces was called: setLinkUp(true) restores it
};
