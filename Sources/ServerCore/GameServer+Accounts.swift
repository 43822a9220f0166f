import Architecture
import AuthenticationClient
import GameProtocol
import GameRules

extension GameServer {
  /// Starts an account request: sign-in limits first, one request at a time per connection.
  func accountRequest(
    _ message: ClientMessage, from id: ClientID, state: inout State
  ) -> Effect<Action> {
    let request = message.type
    guard let client = state.clients[id] else { return .none }
    let (log, address) = (self.log, client.address)
    // Counted by network (one machine has a whole IPv6 /64): the allowance, and the turns the
    // accounts take.
    let network = Network.key(of: client.address)
    guard client.pendingRequest == nil else {
      state.refuse(.busy, request: request, to: id)
      return .none
    }
    switch message {
    case .createAccount, .signIn, .resumeSession:
      guard client.account == nil else {
        state.refuse(.alreadySignedIn, request: request, to: id)
        return .none
      }
    case .countRecoveryCodes, .regenerateRecoveryCodes:
      guard let session = client.account?.accountsSession else {
        state.refuse(.notSignedIn, request: request, to: id)
        return .none
      }
      // Signed in already, so not counted against the address: nothing is guessed here.
      state.clients[id]?.pendingRequest = request
      let authentication = self.authentication
      if case .countRecoveryCodes = message {
        return answering(id, request: request, from: network) {
          .recoveryCodesLeft(try await authentication.remainingRecoveryCodes(session))
        }
      }
      let userName = client.account?.userName ?? ""
      return answering(id, request: request, from: network) {
        let codes = try await authentication.regenerateRecoveryCodes(session)
        log(ServerLog.accountChanged(.recoveryCodes, of: userName, from: address))
        return .recoveryCodes(codes)
      }
    case .submitCode:
      guard client.account == nil else {
        state.refuse(.alreadySignedIn, request: request, to: id)
        return .none
      }
      guard client.challenge != nil else {
        state.refuse(.noChallenge, request: request, to: id)
        return .none
      }
    default:
      break
    }
    // Session tokens are 256 random bits: guessing one is hopeless, so coming back after a
    // drop (a thousand players at once after a restart) costs no sign-in attempt.
    if case .resumeSession = message {
    } else {
      var allowance = state.allowances[network] ?? Allowance(now: state.now)
      if let wait = allowance.take(now: state.now) {
        state.allowances[network] = allowance
        let refusal = Refusal(.rateLimited, request: request, detail: UInt32(wait))
        // Once an empty spell, or an address could fill the log as fast as it can send.
        if allowance.refusalsInARow == 1,
          let line = ServerLog.refused(refusal, of: request, from: address)
        {
          log(line)
        }
        state.send(.refused(refusal), to: id)
        return .none
      }
      state.allowances[network] = allowance
    }
    state.clients[id]?.pendingRequest = request
    let authentication = self.authentication
    let storage = self.storage
    switch message {
    case .createAccount(let userName, let password):
      return signingIn(id, request: request, from: network) {
        let session = try await authentication.createAccount(userName, password)
        return .signedIn(try await storage.openSession(session))
      }
    case .signIn(let userName, let password):
      return signingIn(id, request: request, from: network) {
        switch try await authentication.login(userName, password) {
        case .signedIn(let session): return .signedIn(try await storage.openSession(session))
        case .twoFactorRequired(let challenge): return .codeRequired(challenge)
        }
      }
    case .submitCode(let code):
      guard let challenge = client.challenge else { return .none }
      return signingIn(id, request: request, from: network) {
        let session = try await authentication.verifyTwoFactor(challenge, code)
        return .signedIn(try await storage.openSession(session))
      }
    case .resumeSession(let token):
      return signingIn(id, request: request, from: network) {
        guard let account = try await storage.resumeSession(token) else {
          throw Refusal(.sessionExpired)
        }
        return .signedIn(account)
      }
    case .changePassword(let userName, let old, let new, let code):
      return answering(id, request: request, from: network) {
        let accountID = try await storage.accountID(userName)
        try await authentication.changePassword(
          Credentials(userName: userName, password: old, code: code), new)
        log(ServerLog.accountChanged(.password, of: userName, from: address))
        await Self.endSessions(of: userName, storage: storage, log: log)
        return .sessionsEnded(accountID: accountID)
      }
    case .deleteAccount(let userName, let password, let code):
      return answering(id, request: request, from: network) {
        // Found first: once deleted, the name finds nothing.
        let accountID = try await storage.accountID(userName)
        try await authentication.deleteAccount(
          Credentials(userName: userName, password: password, code: code))
        log(ServerLog.accountChanged(.deleted, of: userName, from: address))
        return .deleted(accountID: accountID)
      }
    case .beginTwoFactor(let userName, let password):
      return answering(id, request: request, from: network) {
        .secret(try await authentication.beginTwoFactor(userName, password))
      }
    case .confirmTwoFactor(let userName, let code):
      return answering(id, request: request, from: network) {
        let accountID = try await storage.accountID(userName)
        let codes = try await authentication.confirmTwoFactor(userName, code)
        log(ServerLog.accountChanged(.twoFactorOn, of: userName, from: address))
        await Self.endSessions(of: userName, storage: storage, log: log)
        return .twoFactorOn(accountID: accountID, recoveryCodes: codes)
      }
    case .disableTwoFactor(let userName, let password, let code):
      return answering(id, request: request, from: network) {
        let accountID = try await storage.accountID(userName)
        try await authentication.disableTwoFactor(
          Credentials(userName: userName, password: password, code: code))
        log(ServerLog.accountChanged(.twoFactorOff, of: userName, from: address))
        await Self.endSessions(of: userName, storage: storage, log: log)
        return .sessionsEnded(accountID: accountID)
      }
    default:
      return .none
    }
  }

  /// Runs a sign-in's work for connection `id` (from `network`, whose turn it takes at the
  /// accounts) and answers it.
  private func signingIn(
    _ id: ClientID, request: UInt8, from network: String,
    _ work: @escaping @Sendable () async throws -> SignInStep
  ) -> Effect<Action> {
    answer(id, request: request, from: network, work) { .signInResponse(id, request: request, $0) }
  }

  /// Ends the stored sessions of the account named `userName` after a change of its password
  /// or two-factor.
  ///
  /// The change stands and is answered as made whatever happens here: sessions that could not
  /// be ended are the operator's to hear of, not a failure to report.
  private static func endSessions(
    of userName: String, storage: ServerStorageClient, log: @Sendable (String) -> Void
  ) async {
    do {
      _ = try await storage.endSessions(userName)
    } catch {
      log(ServerLog.sessionsNotEnded(of: userName, reason: "\(error)"))
    }
  }

  /// Runs an account request's work for connection `id` (from `network`, whose turn it takes
  /// at the accounts) and answers it.
  private func answering(
    _ id: ClientID, request: UInt8, from network: String,
    _ work: @escaping @Sendable () async throws -> AccountReply
  ) -> Effect<Action> {
    answer(id, request: request, from: network, work) { .accountResponse(id, request: request, $0) }
  }

  /// Runs `work` in `network`'s turn at the accounts and sends its result, a failure as the
  /// refusal the client is told.
  private func answer<Reply: Sendable>(
    _ id: ClientID, request: UInt8, from network: String,
    _ work: @escaping @Sendable () async throws -> Reply,
    as response: @escaping @Sendable (Result<Reply, Refusal>) -> Action
  ) -> Effect<Action> {
    .run { [log] send in
      let result: Result<Reply, Refusal>
      do {
        result = .success(
          try await AccountsRequester.$address.withValue(network) { try await work() })
      } catch {
        result = .failure(Self.refusal(for: error, request, log))
      }
      await send(response(result))
    }
  }

  /// The refusal that tells a client why an account request failed; a storage failure's detail
  /// goes to the log, never to the client.
  static func refusal(
    for error: any Error, _ request: UInt8, _ log: @Sendable (String) -> Void
  ) -> Refusal {
    switch error {
    case var refusal as Refusal:
      refusal.request = request
      return refusal
    case let error as AuthenticationError:
      switch error {
      case .invalidCredentials: return Refusal(.invalidCredentials, request: request)
      case .invalidCode: return Refusal(.invalidCode, request: request)
      case .lockedOut(let seconds):
        return Refusal(.lockedOut, request: request, detail: UInt32(clamping: seconds))
      case .userNameTaken: return Refusal(.userNameTaken, request: request)
      case .invalidUserName: return Refusal(.invalidUserName, request: request)
      case .passwordTooShort: return Refusal(.invalidPassword, request: request, detail: 0)
      case .passwordTooLong: return Refusal(.invalidPassword, request: request, detail: 1)
      case .passwordNotText: return Refusal(.invalidPassword, request: request, detail: 2)
      case .codeRequired: return Refusal(.codeRequired, request: request)
      case .notSignedIn: return Refusal(.notSignedIn, request: request)
      case .twoFactorState: return Refusal(.twoFactorState, request: request)
      case .unfinishedOnlineGame: return Refusal(.unfinishedGame, request: request)
      case .storage(let message):
        log("An account request failed: \(message)")
        return Refusal(.serverError, request: request)
      }
    default:
      log("An account request failed: \(error)")
      return Refusal(.serverError, request: request)
    }
  }

  func signInAnswered(
    _ id: ClientID, request: UInt8, _ result: Result<SignInStep, Refusal>, state: inout State
  ) -> Effect<Action> {
    guard let address = state.clients[id]?.address else { return .none }
    state.clients[id]?.pendingRequest = nil
    switch result {
    case .success(.signedIn(let account)):
      log(ServerLog.signedIn(account, request: request, from: address))
      state.clients[id]?.challenge = nil
      state.clients[id]?.account = account
      state.send(
        .signedIn(accountID: account.accountID, userName: account.userName, token: account.token),
        to: id)
    case .success(.codeRequired(let challenge)):
      state.clients[id]?.challenge = challenge
      state.send(.codeRequired, to: id)
    case .failure(let refusal):
      // A wrong code ends the challenge only when the accounts say so; a password failure
      // starts over.
      if request != ClientMessage.submitCode("").type { state.clients[id]?.challenge = nil }
      if let line = ServerLog.refused(refusal, of: request, from: address) { log(line) }
      state.send(.refused(refusal), to: id)
    }
    return .none
  }

  func accountAnswered(
    _ id: ClientID, request: UInt8, _ result: Result<AccountReply, Refusal>, state: inout State
  ) {
    state.clients[id]?.pendingRequest = nil
    switch result {
    case .success(.deleted(let accountID)):
      if let accountID { signOut(accountID, state: &state) }
      if state.clients[id] != nil { state.send(.accepted(request: request), to: id) }
    case .success(.sessionsEnded(let accountID)):
      // A session taken before the password or two-factor changed (a leaked one) ends with
      // the change; the connection that made it proved the new state of things and stays
      // signed in.
      if let accountID { signOut(accountID, except: id, state: &state) }
      if state.clients[id] != nil { state.send(.accepted(request: request), to: id) }
    case .success(.twoFactorOn(let accountID, let codes)):
      if let accountID { signOut(accountID, except: id, state: &state) }
      if state.clients[id] != nil { state.send(.recoveryCodes(codes), to: id) }
    case .success(let reply):
      guard state.clients[id] != nil else { return }
      switch reply {
      case .accepted, .deleted, .sessionsEnded: state.send(.accepted(request: request), to: id)
      case .twoFactorOn(_, let codes): state.send(.recoveryCodes(codes), to: id)
      case .secret(let enrolment):
        state.send(.twoFactorSecret(secret: enrolment.secret, uri: enrolment.uri), to: id)
      case .recoveryCodes(let codes): state.send(.recoveryCodes(codes), to: id)
      case .recoveryCodesLeft(let count): state.send(.recoveryCodesLeft(count), to: id)
      }
    case .failure(let refusal):
      // A password or code guessed through an account change is a guess all the same.
      if let address = state.clients[id]?.address,
        let line = ServerLog.refused(refusal, of: request, from: address)
      {
        log(line)
      }
      guard state.clients[id] != nil else { return }
      state.send(.refused(refusal), to: id)
    }
  }

  /// Signs an account out on every connection but `kept`: after its deletion, or a change of
  /// its password or two-factor.
  ///
  /// A deleted account's games are not touched: the accounts refuse to delete an account with
  /// a game waiting or under way (``AuthenticationError/unfinishedOnlineGame``), and a game
  /// asked for while the deletion was being answered cannot be stored for an account that is
  /// gone, so its creation or seat is refused as the storage failure it is.
  private func signOut(_ accountID: Int64, except kept: ClientID? = nil, state: inout State) {
    for id in state.clients.keys.sorted()
    where id != kept && state.clients[id]?.account?.accountID == accountID {
      state.clients[id]?.account = nil
    }
  }
}
