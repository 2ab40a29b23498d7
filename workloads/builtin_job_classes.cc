#include "workloads/builtin_job_classes.h"

#include <vector>

namespace migsim {
namespace {

using Speeds = std::vector<std::pair<std::string, double>>;

JobClass Make(std::string name, double work, std::string unit, const Speeds& speeds) {
  JobClass jc;
  jc.name = std::move(name);
  jc.work = work;
  jc.work_unit = std::move(unit);
  for (const auto& [kind, speed] : speeds)
    jc.run_time.emplace_back(kind, SimTime::Seconds(work / speed));
  return jc;
}

// MIGPerf measured the MIG profiles only; the whole GPU (MIG off) gets the 7g speed x
// 108/98, the SMs MIG mode takes back (domain.md §1.2).
Speeds MigPerfA100(double g1, double g2, double g3, double g7) {
  const std::string a = "A100-SXM4-40GB/";
  return {{a + "1g.5gb", g1},
          {a + "2g.10gb", g2},
          {a + "3g.20gb", g3},
          {a + "7g.40gb", g7},
          {a + "gpu", g7 * 108 / 98}};
}

BuiltinJobClass BertBaseFinetune() {
  JobClass jc =
      Make("bert-base-finetune", 177250, "sequences",
           {{"A100-SXM4-40GB/gpu", 119.78}, {"A100-SXM4-40GB/1g.5gb", 32.0}, {"T4/gpu", 47.01}});
  jc.duty_cycle = 119.78 / 151.2;
  return {jc,
          "seed 003, Table 1 (NVIDIA, BERT-base fine-tuning on SQuAD, batch 4): speed alone "
          "on a whole A100 and a T4 from the serial rows, on a 1g slice from the 7-MIG row; "
          "duty cycle = 119.78 / 151.2 from the time-shared row; work = 5539 s x 32.0 seq/s"};
}

BuiltinJobClass BertLargeInference() {
  return {
      Make("bert-large-inference", 100000, "sentences",
           {{"A100-SXM4-40GB/gpu", 247.36}, {"A100-SXM4-40GB/1g.5gb", 149.54}, {"T4/gpu", 140.46}}),
      "seed 003, Table 2 (NVIDIA, BERT-large inference, TensorRT/Triton, batch 1): "
      "sentences/s of one model alone; work = 100,000 sentences (a choice)"};
}

BuiltinJobClass SuperResolution() {
  JobClass jc;
  jc.name = "super-resolution";
  jc.startup = SimTime::Seconds(10);
  jc.run_time = {{"A100-SXM4-40GB/1g.5gb", SimTime::Seconds(72)},
                 {"A100-SXM4-40GB/gpu", SimTime::Seconds(24)}};
  jc.work_unit = "jobs";
  return {jc,
          "seed 000 (AWS, GAN super-resolution on p4d): 10 s start, 72 s on a 1g.5gb slice, "
          "24 s on a whole A100, calibrated to the published 87 s (56 on MIG) and about 4 min "
          "(whole GPUs); see scenarios/56-superres.json"};
}

BuiltinJobClass Cifar10Cnn() {
  JobClass jc;
  jc.name = "cifar10-cnn";
  jc.startup = SimTime::Seconds(30);
  jc.work_unit = "runs";
  return {jc,
          "seed 004 (AWS, TensorFlow CIFAR-10 CNN trainer in a Deployment): the post gives "
          "counts, not timings; 30 s start is an assumption, and the class has no run time "
          "(use it for Deployments, or give run_s)"};
}

std::vector<BuiltinJobClass> Build() {
  std::vector<BuiltinJobClass> all = {BertBaseFinetune(), BertLargeInference(), SuperResolution(),
                                      Cifar10Cnn()};
  const std::string migperf =
      "MIGPerf (domain.md §6.1), A100-40GB, samples/s per MIG profile; whole GPU = 7g x "
      "108/98; work = 1,000,000 samples (a choice)";
  all.push_back(
      {Make("migperf-bert-base-inference", 1e6, "samples", MigPerfA100(642, 1350, 2245, 4835)),
       migperf + "; bert-base-multilingual-cased, batch 256"});
  all.push_back(
      {Make("migperf-minilm-inference", 1e6, "samples", MigPerfA100(1440, 2967, 5044, 10760)),
       migperf + "; paraphrase-multilingual-MiniLM-L12, batch 256"});
  all.push_back(
      {Make("migperf-distiluse-inference", 1e6, "samples", MigPerfA100(1282, 2697, 4485, 9662)),
       migperf + "; distiluse-base-multilingual-v1, batch 256"});
  all.push_back(
      {Make("migperf-mpnet-inference", 1e6, "samples", MigPerfA100(640, 1345, 2237, 4815)),
       migperf + "; paraphrase-multilingual-mpnet, batch 256"});
  all.push_back({Make("migperf-resnet50-training", 1e6, "images", MigPerfA100(79, 201, 379, 759)),
                 migperf + "; MoCo-v2 ResNet-50 fine-tuning, best batch that fits"});
  all.push_back({Make("migperf-vit-b16-training", 1e6, "images", MigPerfA100(51, 127, 216, 470)),
                 migperf + "; ViT-B/16 fine-tuning, best batch that fits"});
  return all;
}

}  // namespace

std::span<const BuiltinJobClass> BuiltinJobClasses() {
  static const std::vector<BuiltinJobClass> kAll = Build();  // immutable after first use
  return kAll;
}

const BuiltinJobClass* FindBuiltinJobClass(std::string_view name) {
  for (const BuiltinJobClass& b : BuiltinJobClasses()) {
    if (b.job_class.name == name) return &b;
  }
  return nullptr;
}

}  // namespace migsim
