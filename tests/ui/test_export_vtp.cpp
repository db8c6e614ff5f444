// The labelled point set loads in VTK with one point per input point and the partition, replicated
// and neighbors arrays holding the run's values.
#include <QTemporaryDir>
#include <QTest>

#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>

#include "tests/core/oracle_check.hpp"
#include "tests/ui/run/test_run_support.hpp"
#include "ui/export/run_export.hpp"
#include "ui/run/run_execution.hpp"

using namespace simjoin;
using namespace simjoin::ui;
using simjoin::ui::testing::clustered_points;
using simjoin::ui::testing::make_request;
using simjoin::ui::testing::test_registry;

class TestExportVtp : public QObject {
  Q_OBJECT

 private slots:
  void labelledPointsLoadInVtk_data() {
    QTest::addColumn<bool>("kept");
    QTest::newRow("pairs kept") << true;
    QTest::newRow("join again") << false;
  }

  void labelledPointsLoadInVtk() {
    QFETCH(bool, kept);
    const std::string engine = test_registry().find("cpu-kmeans") ? "cpu-kmeans" : "cpu-bruteforce";
    auto request = make_request(engine, clustered_points(800, 3), 0.4);
    request.params.k = 5;
    if (!kept) request.keep_pairs_limit = 0;
    RunControl control;
    const RunRecord record = execute_run(test_registry(), request, control);
    QTemporaryDir dir;
    const std::string path = dir.filePath("labelled.vtp").toStdString();
    export_labeled_vtp(test_registry(), record, path, control);

    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName(path.c_str());
    reader->Update();
    vtkPolyData* data = reader->GetOutput();
    const auto n = vtkIdType(request.a->size());
    QCOMPARE(data->GetNumberOfPoints(), n);
    vtkDataArray* partition = data->GetPointData()->GetArray("partition");
    vtkDataArray* replicated = data->GetPointData()->GetArray("replicated");
    vtkDataArray* neighbors = data->GetPointData()->GetArray("neighbors");
    QVERIFY(partition && replicated && neighbors);
    QCOMPARE(neighbors->GetNumberOfTuples(), n);

    std::vector<double> expected_neighbors(request.a->size(), 0);
    for (const Pair& pair : simjoin::testing::oracle_pairs(*request.a, nullptr, 0.4))
      ++expected_neighbors[pair.i], ++expected_neighbors[pair.j];
    std::vector<double> expected_copies(request.a->size(), 0);
    if (record.result.partitions)
      for (std::uint32_t point : record.result.partitions->replica_point) ++expected_copies[point];
    double copies = 0;
    for (vtkIdType p = 0; p < n; ++p) {
      QCOMPARE(neighbors->GetTuple1(p), expected_neighbors[std::size_t(p)]);
      QCOMPARE(replicated->GetTuple1(p), expected_copies[std::size_t(p)]);
      const double own = record.result.partitions ? double(record.result.partitions->membership[std::size_t(p)]) : -1.0;
      QCOMPARE(partition->GetTuple1(p), own);
      copies += replicated->GetTuple1(p);
      for (int axis = 0; axis < 3; ++axis)
        QCOMPARE(float(data->GetPoint(p)[axis]), request.a->point(std::size_t(p))[axis]);
    }
    QCOMPARE(copies, double(record.result.stats.replicated_points));
  }
};

QTEST_MAIN(TestExportVtp)
#include "test_export_vtp.moc"
