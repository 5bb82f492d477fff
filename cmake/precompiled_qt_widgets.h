// The desktop app's precompiled headers (cmake/PrecompiledHeaders.cmake): Qt Core's set plus the
// Widgets and Charts headers most of the app's files include.
#pragma once

#include "precompiled_qt_core.h"

#include <QAbstractTableModel>
#include <QAction>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWidget>
