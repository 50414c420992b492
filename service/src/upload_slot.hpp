#pragma once
// One of the server's upload slots (max_concurrent_uploads), held by a request that reads a
// body (/v1/validate, /v1/check-model) from its admission until its answer starts, and given
// back at the latest when the request's exchange ends.
#include "context.hpp"

namespace tensorgate::service {

class UploadSlot {
 public:
  UploadSlot() = default;
  UploadSlot(const UploadSlot&) = delete;
  UploadSlot& operator=(const UploadSlot&) = delete;
  ~UploadSlot() { release(); }

  // False when every slot is taken.
  bool take(ServiceContext& ctx) {
    if (!ctx.try_begin_upload()) return false;
    ctx_ = &ctx;
    return true;
  }
  void release() {
    if (ctx_) ctx_->end_upload();
    ctx_ = nullptr;
  }

 private:
  ServiceContext* ctx_ = nullptr;
};

}  // namespace tensorgate::service
