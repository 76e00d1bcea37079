#include "onnx/shape_inference.h"

#include <fcntl.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>

// Set by the sanitizers' runtimes, absent otherwise: the worker clears it (see serve()).
extern "C" void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

namespace fxc::onnx {
namespace {

using Clock = std::chrono::steady_clock;
std::chrono::milliseconds limit{60000};  // setShapeInferenceLimit

// Requests and replies are frames on one socket: 8 bytes of length (host order: both ends are
// this program), then the serialized message.
bool readExactly(int fd, char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool writeExactly(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// The worker: answers each model with what ONNX's shape inference made of it, until the socket
// closes (fxc ended or gave up on it).
[[noreturn]] void serve(int socket) {
  // A crash ends this process alone, quietly. Handlers inherited from the parent would act as if
  // the parent crashed: a fuzzer's files the input the parent was on when it forked this worker.
  for (int signal : {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE}) ::signal(signal, SIG_DFL);
  if (&__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(nullptr);
  // Hold none of fxc's files: not its stdout (a pipe's reader would wait for this process to
  // end), not its outputs, not the parent's end of the socket.
  int null = ::open("/dev/null", O_RDWR);
  if (null >= 0) {
    ::dup2(null, STDIN_FILENO);
    ::dup2(null, STDOUT_FILENO);
  }
  if (::dup2(socket, 3) != 3) ::_exit(1);
  ::close_range(4, ~0U, 0);
  socket = 3;
  for (;;) {
    uint64_t size = 0;
    if (!readExactly(socket, reinterpret_cast<char*>(&size), sizeof size)) ::_exit(0);
    std::string bytes(size, '\0');
    if (!readExactly(socket, bytes.data(), bytes.size())) ::_exit(0);
    ::onnx::ModelProto model;
    ::onnx::GraphProto result;
    if (model.ParseFromString(bytes)) {
      try {
        ::onnx::shape_inference::InferShapes(model);
      } catch (const std::exception&) {
        // What the inference annotated before it gave up is still worth sending.
      }
      *result.mutable_value_info() = model.graph().value_info();
      *result.mutable_output() = model.graph().output();
    }
    bytes = result.SerializeAsString();
    size = bytes.size();
    if (!writeExactly(socket, reinterpret_cast<const char*>(&size), sizeof size) ||
        !writeExactly(socket, bytes.data(), bytes.size()))
      ::_exit(1);
  }
}

class Worker {
 public:
  // Sends the model and waits for the reply until `deadline`; false with `why` when the worker
  // could not be started, died, failed or ran out of time (it is gone then).
  bool ask(const std::string& request, std::string& reply, Clock::time_point deadline,
           std::string& why) {
    if (pid_ < 0 && !start(why)) return false;
    uint64_t size = request.size();
    bool timed_out = false;
    if (!transfer(reinterpret_cast<char*>(&size), sizeof size, POLLOUT, deadline, timed_out) ||
        !transfer(const_cast<char*>(request.data()), request.size(), POLLOUT, deadline,
                  timed_out) ||
        !transfer(reinterpret_cast<char*>(&size), sizeof size, POLLIN, deadline, timed_out)) {
      why = stop(timed_out);
      return false;
    }
    reply.assign(size, '\0');
    if (!transfer(reply.data(), reply.size(), POLLIN, deadline, timed_out)) {
      why = stop(timed_out);
      return false;
    }
    return true;
  }

 private:
  bool start(std::string& why) {
    int sockets[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
      why = std::string("socketpair: ") + std::strerror(errno);
      return false;
    }
    // ONNX's schema registry is built on first use: built here, every worker inherits it, and a
    // replaced one starts at the cost of a fork (under ASan, building it took the better part of
    // a second: the fuzzers' time limit is 2 s).
    static_cast<void>(::onnx::OpSchemaRegistry::Schema("Relu"));
    std::fflush(nullptr);
    pid_t child = ::fork();
    if (child < 0) {
      why = std::string("fork: ") + std::strerror(errno);
      ::close(sockets[0]);
      ::close(sockets[1]);
      return false;
    }
    if (child == 0) serve(sockets[1]);
    ::close(sockets[1]);
    pid_ = child;
    socket_ = sockets[0];
    return true;
  }

  // Moves `size` bytes in the direction `events` says, waiting no later than `deadline`.
  bool transfer(char* data, size_t size, short events, Clock::time_point deadline,
                bool& timed_out) {
    while (size > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      pollfd ready{socket_, events, 0};
      int polled = left.count() > 0 ? ::poll(&ready, 1, static_cast<int>(left.count())) : 0;
      if (polled < 0 && errno == EINTR) continue;
      if (polled <= 0) {
        timed_out = true;
        return false;
      }
      ssize_t n = events == POLLIN ? ::read(socket_, data, size)
                                   : ::send(socket_, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) return false;
      data += n;
      size -= static_cast<size_t>(n);
    }
    return true;
  }

  // Ends the worker (killing it when it ran out of time) and says how it ended.
  std::string stop(bool timed_out) {
    if (timed_out) ::kill(pid_, SIGKILL);
    ::close(socket_);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    socket_ = -1;
    if (timed_out) return "it ran for more than a minute";
    if (WIFSIGNALED(status))
      return std::string("it crashed (") + ::strsignal(WTERMSIG(status)) + ") on this model";
    return "it failed";
  }

  pid_t pid_ = -1;
  int socket_ = -1;
};

}  // namespace

void setShapeInferenceLimit(std::chrono::milliseconds time) { limit = time; }

bool inferShapesIsolated(::onnx::ModelProto& model, std::string& why) {
  static std::mutex mutex;
  static Worker worker;
  std::lock_guard<std::mutex> lock(mutex);
  std::string request;
  if (!model.SerializeToString(&request)) {
    why = "the model could not be serialized for it";
    return false;
  }
  std::string reply;
  if (!worker.ask(request, reply, Clock::now() + limit, why)) return false;
  ::onnx::GraphProto result;
  if (!result.ParseFromString(reply) || result.output_size() != model.graph().output_size()) {
    why = "it failed";
    return false;
  }
  *model.mutable_graph()->mutable_value_info() = std::move(*result.mutable_value_info());
  for (int k = 0; k < result.output_size(); ++k)
    *model.mutable_graph()->mutable_output(k) = std::move(*result.mutable_output(k));
  return true;
}

}  // namespace fxc::onnx
