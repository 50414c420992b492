#include "check_runner.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "file_check.hpp"
#include "file_kind.hpp"
#include "inputs.hpp"
#include "model_dir_check.hpp"
#include "network.hpp"
#include "split_sets.hpp"
#include "template_check.hpp"
#include "tensorgate/chat_template.hpp"
#include "url.hpp"

namespace tensorgate::cli {
namespace {

// What one thread owns: the memory budget of the file it checks, and a remote session (its
// io_context, connection and client), which the network half makes when the thread first
// checks a URL (network.hpp: a type this file does not know, so that it links none of it).
class Worker {
 public:
  explicit Worker(const CheckSettings& settings) : budget_(settings.memory_budget) {}
  MemoryBudget* budget() { return &budget_; }
  NetworkWorker network() { return NetworkWorker{&budget_, session_}; }

 private:
  CountingBudget budget_;
  std::shared_ptr<void> session_;
};

// Tasks taken in submission order by up to `jobs` threads; a task may submit more. The thread
// that waits is one of them, and the others start only when there is work for them: a single
// file is checked on the calling thread, with no thread or malloc arena to set up (a fifth of a
// small file's whole check).
class TaskPool {
 public:
  using Task = std::function<void(Worker&)>;

  explicit TaskPool(const CheckSettings& settings)
      : settings_(settings), max_threads_(std::max(1u, settings.jobs) - 1) {}
  ~TaskPool() { wait(); }

  void submit(Task task) {
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(std::move(task));
      ++pending_;
      if (waiting_ && idle_ == 0) start_thread();
    }
    ready_.notify_one();
  }

  // Runs tasks on this thread, beside the others, until every task (including those submitted
  // by tasks) has run.
  void wait() {
    {
      std::lock_guard lock(mutex_);
      if (done_) return;
      waiting_ = true;
      // This thread takes the first task; one more thread for each further one, up to jobs.
      for (std::size_t i = 1; i < queue_.size(); ++i) start_thread();
    }
    Worker worker(settings_);
    loop(worker, true);
    {
      std::lock_guard lock(mutex_);
      stop_ = done_ = true;
    }
    ready_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

 private:
  void start_thread() {  // with mutex_ held
    if (threads_.size() >= max_threads_) return;
    ++idle_;  // counted as idle from now, so that the next submit does not start another
    threads_.emplace_back([this] {
      Worker worker(settings_);
      loop(worker, false);
    });
  }

  // The waiting thread (`caller`) returns when nothing is pending, the others when stopped.
  void loop(Worker& worker, bool caller) {
    std::unique_lock lock(mutex_);
    if (!caller) --idle_;
    for (;;) {
      ++idle_;
      ready_.wait(lock, [&] { return stop_ || !queue_.empty() || (caller && pending_ == 0); });
      --idle_;
      if (queue_.empty()) return;
      Task task = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      task(worker);
      lock.lock();
      if (--pending_ == 0) ready_.notify_all();
    }
  }

  const CheckSettings& settings_;
  const std::size_t max_threads_;  // besides the waiting one
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Task> queue_;
  std::size_t pending_ = 0;
  std::size_t idle_ = 0;  // threads waiting for a task
  bool waiting_ = false, stop_ = false, done_ = false;
  std::vector<std::thread> threads_;
};

using Slot = std::vector<CheckedFile>;  // one planned check's entries, in report order

// A slot of one entry, moved in: a braced list would copy it (an initializer_list's elements are
// const), summary and all, ~5% of a 252-tensor ONNX check's instructions.
Slot one_entry(CheckedFile file) {
  Slot slot;
  slot.push_back(std::move(file));
  return slot;
}

// A chat template file by its name, unless its content is a model file's.
std::optional<ChatTemplateFileKind> template_kind_of(const std::string& path, const std::string& name) {
  if (!chat_template_file_kind(name)) return std::nullopt;
  const auto kind = sniff_file(path);
  return template_file_kind(name, kind ? kind->format : Format::unknown);
}

struct Planned {
  Slot files;
  std::optional<GivenShard> shard;  // a file given by itself that may be a split set's shard
};

class Planner {
 public:
  Planner(const CheckSettings& settings, TaskPool& pool, std::deque<Planned>& slots)
      : settings_(settings), pool_(pool), slots_(slots) {}

  void plan(const std::string& entry) {
    if (remote::looks_like_url(entry)) {
      plan_url(entry);
      return;
    }
    for (InputItem& item : expand_inputs({entry})) {
      Planned& slot = new_slot();
      const std::string name = item.path.substr(item.path.find_last_of('/') + 1);
      if (item.error) {
        complete(slot, one_entry(CheckedFile{item.path, std::nullopt, *item.error}));
      } else if (item.model_directory) {
        pool_.submit([this, &slot, path = item.path](Worker& w) {
          Slot out;
          check_model_directory(path, settings_.format, out, w.budget(), settings_.limits);
          complete(slot, std::move(out));
        });
      } else if (const auto kind = item.path == "-" ? std::nullopt : template_kind_of(item.path, name)) {
        pool_.submit([this, &slot, path = item.path, kind = *kind](Worker&) {
          complete(slot, one_entry(check_template_file(path, kind, settings_.limits)));
        });
      } else {
        pool_.submit([this, &slot, path = item.path](Worker& w) {
          complete(slot, one_entry(check_file(path, settings_.limits, settings_.format, w.budget())), true);
        });
      }
    }
  }

 private:
  Planned& new_slot() {
    if (settings_.progress) settings_.progress->add_entries(1);
    return slots_.emplace_back();
  }

  // The slot's final entries; tensor tables go now unless the report shows them (a file given
  // by itself first keeps what the split-set checks need).
  void complete(Planned& slot, Slot files, bool given_file = false) {
    if (given_file && files.size() == 1) slot.shard = given_shard(files.front());
    for (CheckedFile& f : files) {
      if (!settings_.keep_tensors && f.report) {
        if (SafetensorsSummary* s = f.report->summary.get<SafetensorsSummary>()) s->drop_tensors();
        if (GgufSummary* g = f.report->summary.get<GgufSummary>()) g->tensors.reset();
      }
      if (settings_.progress && !f.directory) settings_.progress->file_done(f.bytes_transferred.value_or(0));
    }
    slot.files = std::move(files);
    if (settings_.progress) settings_.progress->entry_done();
  }

  // A URL entry's slot, which the network half fills through this plan.
  class SlotPlan final : public UrlPlan {
   public:
    SlotPlan(Planner& planner, Planned& slot) : planner_(planner), slot_(slot) {}
    const CheckSettings& settings() const override { return planner_.settings_; }
    void submit(Task task) override {
      planner_.pool_.submit([task = std::move(task)](Worker& w) {
        NetworkWorker n = w.network();
        task(n);
      });
    }
    void complete(std::vector<CheckedFile> files) override { planner_.complete(slot_, std::move(files)); }

   private:
    Planner& planner_;
    Planned& slot_;
  };

  void plan_url(const std::string& entry) { network::plan_url(entry, std::make_shared<SlotPlan>(*this, new_slot())); }

  const CheckSettings& settings_;
  TaskPool& pool_;
  std::deque<Planned>& slots_;  // a deque: references stay valid as slots are added
};

}  // namespace

std::vector<CheckedFile> check_entries(const std::vector<std::string>& entries, const CheckSettings& settings) {
  std::deque<Planned> slots;
  {
    TaskPool pool(settings);
    Planner planner(settings, pool, slots);
    for (const std::string& entry : entries) planner.plan(entry);
    pool.wait();
  }
  std::vector<CheckedFile> files;
  std::vector<GivenShard> shards;
  for (Planned& slot : slots) {
    for (CheckedFile& f : slot.files) files.push_back(std::move(f));
    if (slot.shard) shards.push_back(std::move(*slot.shard));
  }
  check_given_split_sets(shards, settings.limits, files);
  return files;
}

}  // namespace tensorgate::cli
