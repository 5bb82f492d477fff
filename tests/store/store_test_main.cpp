#include <QTest>

#include "store_test.h"

QTEST_GUILESS_MAIN(StoreTest)
